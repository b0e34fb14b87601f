import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChecklistDto } from '../../../../domain/schemas/task-detail';
import { api } from '../../../lib/api-client';
import { taskPartKeys } from './get-attachments';

export const getChecklist = (taskId: string, signal?: AbortSignal) =>
  api.get<ChecklistDto>(`/api/tasks/${taskId}/checklist`, { signal });

/** The task's checklist in position order. */
export const checklistQueryOptions = (taskId: string) =>
  queryOptions({
    queryKey: taskPartKeys.checklist(taskId),
    queryFn: ({ signal }) => getChecklist(taskId, signal),
  });

export const useChecklist = (taskId: string) => useQuery(checklistQueryOptions(taskId));
