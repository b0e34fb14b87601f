import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TimelineAnswer } from '../../../../domain/schemas/timeline';
import { api } from '../../../lib/api-client';
import { type TimelineScope, timelineKeys } from './timeline-keys';

/** GET /api/timeline: one scope at most (a project wins over its team, as the route takes one). */
export const getTimeline = (s: TimelineScope, signal?: AbortSignal) =>
  api.get<TimelineAnswer>('/api/timeline', {
    query: { from: s.from, to: s.to, ...(s.projectId ? { projectId: s.projectId } : { teamId: s.teamId }) },
    signal,
  });

export const timelineOptions = (s: TimelineScope) =>
  queryOptions({ queryKey: timelineKeys.window(s), queryFn: ({ signal }) => getTimeline(s, signal) });

/** The window's tasks; while another window or scope loads, the previous one's stay (dimmed by the page). */
export const useTimeline = (s: TimelineScope) => useQuery({ ...timelineOptions(s), placeholderData: keepPreviousData });
