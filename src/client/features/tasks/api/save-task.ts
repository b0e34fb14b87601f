import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LIMITS } from '../../../../domain/constants';
import type { CreateTaskInput, TaskDto, UpdateTaskInput } from '../../../../domain/schemas/task';
import { api } from '../../../lib/api-client';
import { invalidateTasks } from './prefetch-board';

export const createTask = (input: CreateTaskInput) => api.post<TaskDto>('/api/tasks', input);
export const updateTask = (id: string, input: UpdateTaskInput) => api.patch<TaskDto>(`/api/tasks/${id}`, input);
export const deleteTask = (id: string) => api.delete(`/api/tasks/${id}`);

export function useCreateTask() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createTask,
    onSuccess: () => {
      void invalidateTasks(qc);
      // About 1 s after a create, everything is refetched (spec §4 'Data loading').
      setTimeout(() => void qc.invalidateQueries(), LIMITS.refetchAfterCreateMs);
    },
  });
}

export function useUpdateTask() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdateTaskInput }) => updateTask(id, input),
    onSettled: () => invalidateTasks(qc),
  });
}

export function useDeleteTask() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteTask,
    onSettled: () => invalidateTasks(qc),
  });
}
