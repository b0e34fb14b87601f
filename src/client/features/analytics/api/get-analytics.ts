import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type {
  AnalyticsDto,
  AnalyticsQuery,
  CumulativeFlowDto,
  CumulativeFlowQuery,
  TimeAnalyticsDto,
  TimeAnalyticsQuery,
} from '../../../../domain/schemas/analytics';
import { api } from '../../../lib/api-client';
import { rootKey } from '../../../lib/query-keys';

/**
 * The analytics keys sit under the 'dashboard' root: every event that changes the dashboard's figures (a task,
 * project or membership change) changes these too, and realtime.ts refreshes that root, so open charts stay true.
 */
export const analyticsKeys = {
  all: [...rootKey('dashboard'), 'analytics'] as const,
  scope: (query: AnalyticsQuery) => [...analyticsKeys.all, query] as const,
  flow: (query: CumulativeFlowQuery) => [...analyticsKeys.all, 'cumulative-flow', query] as const,
  time: (query: TimeAnalyticsQuery) => [...analyticsKeys.all, 'time', query] as const,
};

export const getAnalytics = (query: AnalyticsQuery, signal?: AbortSignal) =>
  api.get<AnalyticsDto>('/api/analytics', { query: { ...query }, signal });

export const analyticsQueryOptions = (query: AnalyticsQuery) =>
  queryOptions({
    queryKey: analyticsKeys.scope(query),
    queryFn: ({ signal }) => getAnalytics(query, signal),
    // A new scope keeps the last figures on screen (marked as updating) instead of flashing the skeletons.
    placeholderData: keepPreviousData,
  });

/** The figures of a scope; nothing is asked while the scope is not valid (`query` undefined). */
export const useAnalytics = (query: AnalyticsQuery | undefined) =>
  useQuery({ ...analyticsQueryOptions(query ?? {}), enabled: query !== undefined });

export const getCumulativeFlow = (query: CumulativeFlowQuery, signal?: AbortSignal) =>
  api.get<CumulativeFlowDto>('/api/analytics/cumulative-flow', { query: { ...query }, signal });

/** One project's cumulative flow; nothing is asked without a project (`query` undefined). */
export const useCumulativeFlow = (query: CumulativeFlowQuery | undefined) =>
  useQuery({
    queryKey: analyticsKeys.flow(query ?? { projectId: '' }),
    queryFn: ({ signal }) => getCumulativeFlow(query!, signal),
    placeholderData: keepPreviousData,
    enabled: query !== undefined,
  });

export const getTimeAnalytics = (query: TimeAnalyticsQuery, signal?: AbortSignal) =>
  api.get<TimeAnalyticsDto>('/api/analytics/time', { query: { ...query }, signal });

/** 'Time logged' and 'Estimate vs actual' (issue 39) of the page's scope and period (without 'Split by'). */
export const useTimeAnalytics = (query: TimeAnalyticsQuery) =>
  useQuery({
    queryKey: analyticsKeys.time(query),
    queryFn: ({ signal }) => getTimeAnalytics(query, signal),
    placeholderData: keepPreviousData,
  });
