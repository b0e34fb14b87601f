import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ActivityListDto } from '../../../../domain/schemas/task-detail';
import { api } from '../../../lib/api-client';
import { taskDetailKeys } from './task-detail-keys';

export const getActivity = (taskId: string, signal?: AbortSignal) =>
  api.get<ActivityListDto>(`/api/tasks/${taskId}/activity`, { signal });

/** A task's history: its creation, then every field change, oldest first. */
export const activityQueryOptions = (taskId: string) =>
  queryOptions({ queryKey: taskDetailKeys.activity(taskId), queryFn: ({ signal }) => getActivity(taskId, signal) });

export const useActivity = (taskId: string) => useQuery(activityQueryOptions(taskId));
