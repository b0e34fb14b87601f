import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  CreateStatusInput,
  DeleteStatusInput,
  StatusDto,
  StatusListDto,
  UpdateStatusInput,
} from '../../../../domain/schemas/workflow';
import { api } from '../../../lib/api-client';
import { toastError } from '../../../lib/errors';
import { statusKeys } from '../../../lib/queries/statuses';
import { inOrder, WORKFLOW_MSG } from '../workflow-edit';
import { statusTaskCountKeys } from './get-status-task-counts';

const projectBase = (projectId: string) => `/api/projects/${encodeURIComponent(projectId)}/statuses`;
const statusPath = (statusId: string) => `/api/statuses/${encodeURIComponent(statusId)}`;

/** 'Add status': after the last one; its key comes from its name. */
export const createStatus = (projectId: string, input: CreateStatusInput) => api.post<StatusDto>(projectBase(projectId), input);

/** A rename (the key stays), a new category, colour or WIP limit. */
export const updateStatus = (statusId: string, input: UpdateStatusInput) => api.patch<StatusDto>(statusPath(statusId), input);

/** Without `moveTo` a status that has tasks is refused (409 status_not_empty); with it, its tasks move there first. */
export const deleteStatus = (statusId: string, input: DeleteStatusInput) =>
  api.delete(statusPath(statusId), input.moveTo ? { body: input } : undefined);

/** The whole workflow's new order. */
export const reorderStatuses = (projectId: string, ids: string[]) =>
  api.put<StatusListDto>(`${projectBase(projectId)}/order`, { ids });

/** Every write refreshes the project's statuses (and, for a delete, the tasks it moved). */
function useSettle(projectId: string) {
  const queryClient = useQueryClient();
  return {
    queryClient,
    settle: () => queryClient.invalidateQueries({ queryKey: statusKeys.of(projectId) }),
  };
}

export function useCreateStatus(projectId: string) {
  const { settle } = useSettle(projectId);
  return useMutation({ mutationFn: (input: CreateStatusInput) => createStatus(projectId, input), onSettled: settle });
}

export function useUpdateStatus(projectId: string) {
  const { queryClient, settle } = useSettle(projectId);
  return useMutation({
    mutationFn: ({ statusId, input }: { statusId: string; input: UpdateStatusInput }) => updateStatus(statusId, input),
    onSuccess: (saved) =>
      queryClient.setQueryData<StatusDto[]>(statusKeys.of(projectId), (list) =>
        list?.map((s) => (s.id === saved.id ? saved : s)),
      ),
    onSettled: settle,
  });
}

export function useDeleteStatus(projectId: string) {
  const { queryClient, settle } = useSettle(projectId);
  return useMutation({
    mutationFn: ({ statusId, moveTo }: { statusId: string; moveTo?: string }) => deleteStatus(statusId, { moveTo }),
    onSettled: async () => {
      await Promise.all([settle(), queryClient.invalidateQueries({ queryKey: statusTaskCountKeys.of(projectId) })]);
    },
  });
}

/**
 * Reordering shows at once and is undone if the server refuses it. Orders are sent one after another (one scope), each
 * the whole list as it was after the moves before it, so a quick second move never overtakes the first; the list is
 * read again once the last one is answered.
 */
export function useReorderStatuses(projectId: string) {
  const { queryClient, settle } = useSettle(projectId);
  const key = statusKeys.of(projectId);
  const mutationKey = [...key, 'order'];
  return useMutation({
    mutationKey,
    scope: { id: JSON.stringify(mutationKey) },
    mutationFn: (ids: string[]) => reorderStatuses(projectId, ids),
    onMutate: async (ids) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<StatusDto[]>(key);
      if (before) queryClient.setQueryData(key, inOrder(before, ids));
      return { before };
    },
    onError: (error, _ids, context) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
      toastError(error, WORKFLOW_MSG.reorderFailed);
    },
    onSettled: () => (queryClient.isMutating({ mutationKey }) === 1 ? settle() : undefined),
  });
}
