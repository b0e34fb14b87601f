import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AttachmentDto, AttachmentListDto } from '../../../../domain/schemas/task-detail';
import { api } from '../../../lib/api-client';
import { toastError } from '../../../lib/errors';
import { taskPartKeys } from './get-attachments';
import { invalidateTasks } from './prefetch-board';

export const deleteAttachment = (taskId: string, id: string) => api.delete(`/api/tasks/${taskId}/attachments/${id}`);

/** Takes the file off the list at once; on failure it comes back, with a toast. */
export function useDeleteAttachment(taskId: string) {
  const qc = useQueryClient();
  const key = taskPartKeys.attachments(taskId);
  return useMutation({
    mutationFn: (file: AttachmentDto) => deleteAttachment(taskId, file.id),
    onMutate: async (file) => {
      await qc.cancelQueries({ queryKey: key });
      const snapshot = qc.getQueryData<AttachmentListDto>(key);
      if (snapshot)
        qc.setQueryData<AttachmentListDto>(key, { attachments: snapshot.attachments.filter((a) => a.id !== file.id) });
      return { snapshot };
    },
    onError: (error, _file, context) => {
      if (context?.snapshot) qc.setQueryData(key, context.snapshot);
      toastError(error, 'Failed to delete the file');
    },
    onSettled: () => invalidateTasks(qc),
  });
}
