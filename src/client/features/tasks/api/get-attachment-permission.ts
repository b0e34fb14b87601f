import { useQuery } from '@tanstack/react-query';
import { canDeleteAttachment } from '../../../../domain/permissions';
import type { AttachmentDto } from '../../../../domain/schemas/task-detail';
import { projectsQueryOptions } from '../../../lib/queries/projects';
import { useAuthStore } from '../../../stores/auth-store';
import { useTask } from './get-task';

/**
 * Whether I may delete a file of this task: its uploader, or the owner/admins of the task's team (my role there is the
 * `myRole` of the task's project). Until both are known, only my own uploads.
 */
export function useCanDeleteAttachment(taskId: string): (file: AttachmentDto) => boolean {
  const userId = useAuthStore((s) => s.user?.id);
  const { data: task } = useTask(taskId, true);
  const { data: projects } = useQuery(projectsQueryOptions());
  const role = task ? projects?.find((p) => p.id === task.projectId)?.myRole : undefined;
  return (file) =>
    userId !== undefined && canDeleteAttachment(role ?? 'member', userId, { uploaderId: file.uploader?.id ?? null });
}
