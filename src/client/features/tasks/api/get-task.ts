import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TaskDto } from '../../../../domain/schemas/task';
import { api } from '../../../lib/api-client';
import { taskKeys } from './task-keys';
import { taskDetailKeys } from './task-detail-keys';

export const getTask = (taskId: string, signal?: AbortSignal) => api.get<TaskDto>(`/api/tasks/${taskId}`, { signal });

export const taskQueryOptions = (taskId: string) =>
  queryOptions({ queryKey: taskDetailKeys.task(taskId), queryFn: ({ signal }) => getTask(taskId, signal) });

/**
 * The task as the board, the list or an earlier visit already holds it (the newest version any of them has, with when
 * that was fetched), if any does.
 */
export function findCachedTask(qc: QueryClient, taskId: string): { task: TaskDto; at: number } | undefined {
  let found: { task: TaskDto; at: number } | undefined;
  for (const query of qc.getQueryCache().findAll({ queryKey: taskKeys.all })) {
    const data = query.state.data as { pages?: { tasks?: TaskDto[] }[] } | TaskDto | undefined;
    if (!data || typeof data !== 'object') continue;
    const task =
      'pages' in data && Array.isArray(data.pages)
        ? data.pages.flatMap((p) => p.tasks ?? []).find((t) => t.id === taskId)
        : 'version' in data && data.id === taskId
          ? data
          : undefined;
    const at = query.state.dataUpdatedAt;
    if (task && (!found || task.version > found.task.version || (task.version === found.task.version && at > found.at))) {
      found = { task, at };
    }
  }
  return found;
}

/**
 * One task for its page (/tasks/:id): from the board's cache when it is there (a card just clicked, Back to a task
 * seen), else GET /api/tasks/:id (a shared link, a reload).
 */
export function useTask(taskId: string, enabled: boolean) {
  const qc = useQueryClient();
  return useQuery({
    ...taskQueryOptions(taskId),
    enabled,
    initialData: () => findCachedTask(qc, taskId)?.task,
    initialDataUpdatedAt: () => findCachedTask(qc, taskId)?.at,
  });
}
