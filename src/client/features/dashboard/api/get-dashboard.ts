import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DashboardDto } from '../../../../domain/schemas/dashboard';
import { api } from '../../../lib/api-client';
import { dashboardKeys } from './dashboard-keys';

/** `today` is the viewer's local date: it decides which deadlines are overdue. */
export const getDashboard = (today: string, signal?: AbortSignal) =>
  api.get<DashboardDto>('/api/dashboard', { query: { today }, signal });

export const dashboardQueryOptions = (today: string) =>
  queryOptions({
    queryKey: dashboardKeys.summary(today),
    queryFn: ({ signal }) => getDashboard(today, signal),
    // A summary of everything: cheap to fetch, so fresh on every visit (cached data shows meanwhile).
    staleTime: 0,
  });

export const useDashboard = (today: string) => useQuery(dashboardQueryOptions(today));
