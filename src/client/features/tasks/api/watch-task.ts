import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WatchStateDto } from '../../../../domain/schemas/task-detail';
import { api } from '../../../lib/api-client';
import { taskDetailKeys } from './task-detail-keys';

export const getWatchState = (taskId: string, signal?: AbortSignal) =>
  api.get<WatchStateDto>(`/api/tasks/${taskId}/watch`, { signal });
export const setWatching = (taskId: string, watching: boolean) =>
  api.put<WatchStateDto>(`/api/tasks/${taskId}/watch`, { watching });

/** Whether I watch the task, and who does. */
export const watchQueryOptions = (taskId: string) =>
  queryOptions({ queryKey: taskDetailKeys.watch(taskId), queryFn: ({ signal }) => getWatchState(taskId, signal) });

export const useWatchState = (taskId: string) => useQuery(watchQueryOptions(taskId));

export function useSetWatching(taskId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (watching: boolean) => setWatching(taskId, watching),
    onSuccess: (state) => qc.setQueryData(taskDetailKeys.watch(taskId), state),
    onSettled: () => qc.invalidateQueries({ queryKey: taskDetailKeys.watch(taskId) }),
  });
}
