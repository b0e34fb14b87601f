import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TaskBoardDto } from '../../../../domain/schemas/task';
import { api } from '../../../lib/api-client';
import { rootKey } from '../../../lib/query-keys';

/**
 * How many tasks each status of a project holds: one project's board (with a card per column, the least it sends)
 * counts per status key, from the counters. Under the 'tasks' root, so any task change (here or by realtime) refreshes
 * it. A key missing from the answer has no tasks.
 */
export const statusTaskCountKeys = {
  of: (projectId: string) => [...rootKey('tasks'), 'status-counts', projectId] as const,
};

export const getStatusTaskCounts = async (projectId: string, signal?: AbortSignal): Promise<Record<string, number>> =>
  (await api.get<Pick<TaskBoardDto, 'counts'>>('/api/tasks/board', { query: { projectId, limit: 1 }, signal })).counts;

export const statusTaskCountsQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: statusTaskCountKeys.of(projectId),
    queryFn: ({ signal }) => getStatusTaskCounts(projectId, signal),
  });

export const useStatusTaskCounts = (projectId: string) => useQuery(statusTaskCountsQueryOptions(projectId));
