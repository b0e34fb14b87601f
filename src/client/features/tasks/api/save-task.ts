import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateTaskInput, TaskDto, UpdateTaskInput } from '../../../../domain/schemas/task';
import { api } from '../../../lib/api-client';
import { useCreateMutation } from '../../../lib/use-create-mutation';
import { invalidateTasks } from './prefetch-board';

export const createTask = (input: CreateTaskInput) => api.post<TaskDto>('/api/tasks', input);
export const updateTask = (id: string, input: UpdateTaskInput) => api.patch<TaskDto>(`/api/tasks/${id}`, input);
export const deleteTask = (id: string) => api.delete(`/api/tasks/${id}`);

export const useCreateTask = () => useCreateMutation(createTask, invalidateTasks);

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
