import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AttachmentListDto } from '../../../../domain/schemas/task-detail';
import { api } from '../../../lib/api-client';
import { taskKeys } from './task-keys';

/**
 * The task page's parts live under ['tasks', 'detail', id, …]: the 'tasks' root that realtime events and every task
 * write (invalidateTasks) refresh.
 */
export const taskPartKeys = {
  detail: (taskId: string) => [...taskKeys.all, 'detail', taskId] as const,
  /** The task itself as GET /api/tasks/:id answers it. */
  task: (taskId: string) => [...taskPartKeys.detail(taskId), 'task'] as const,
  attachments: (taskId: string) => [...taskPartKeys.detail(taskId), 'attachments'] as const,
  checklist: (taskId: string) => [...taskPartKeys.detail(taskId), 'checklist'] as const,
};

export const getAttachments = (taskId: string, signal?: AbortSignal) =>
  api.get<AttachmentListDto>(`/api/tasks/${taskId}/attachments`, { signal });

/** Signed links live at least two hours: a panel left open gets fresh ones before then. */
const LINK_REFRESH_MS = 60 * 60_000;

/** Oldest first, each with a signed URL that expires. */
export const attachmentsQueryOptions = (taskId: string) =>
  queryOptions({
    queryKey: taskPartKeys.attachments(taskId),
    queryFn: ({ signal }) => getAttachments(taskId, signal),
    select: (data) => data.attachments,
    refetchInterval: LINK_REFRESH_MS,
  });

export const useAttachments = (taskId: string) => useQuery(attachmentsQueryOptions(taskId));
