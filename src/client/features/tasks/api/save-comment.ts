import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CommentDto, CommentInput, CommentListDto } from '../../../../domain/schemas/task-detail';
import { api } from '../../../lib/api-client';
import { invalidateTasks } from './prefetch-board';
import { taskDetailKeys } from './task-detail-keys';

export const addComment = (taskId: string, input: CommentInput) => api.post<CommentDto>(`/api/tasks/${taskId}/comments`, input);
export const editComment = (taskId: string, commentId: string, input: CommentInput) =>
  api.patch<CommentDto>(`/api/tasks/${taskId}/comments/${commentId}`, input);
export const deleteComment = (taskId: string, commentId: string) => api.delete(`/api/tasks/${taskId}/comments/${commentId}`);

type Update = (comments: CommentDto[]) => CommentDto[];

/**
 * Every comment write: the answer goes into the list at once, then everything under 'tasks' is refreshed (the card's
 * count, the watchers a comment adds, the history).
 */
function useCommentMutation<V, R>(taskId: string, request: (vars: V) => Promise<R>, apply: (vars: V, result: R) => Update) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (result, vars) =>
      qc.setQueryData<CommentListDto>(taskDetailKeys.comments(taskId), (old) =>
        old ? { comments: apply(vars, result)(old.comments) } : old,
      ),
    onSettled: () => invalidateTasks(qc),
  });
}

export const useAddComment = (taskId: string) =>
  useCommentMutation(
    taskId,
    (input: CommentInput) => addComment(taskId, input),
    (_, created) => (list) => [...list.filter((c) => c.id !== created.id), created],
  );

export const useEditComment = (taskId: string) =>
  useCommentMutation(
    taskId,
    ({ id, input }: { id: string; input: CommentInput }) => editComment(taskId, id, input),
    (_, saved) => (list) => list.map((c) => (c.id === saved.id ? saved : c)),
  );

export const useDeleteComment = (taskId: string) =>
  useCommentMutation(
    taskId,
    (id: string) => deleteComment(taskId, id),
    (id) => (list) => list.filter((c) => c.id !== id),
  );
