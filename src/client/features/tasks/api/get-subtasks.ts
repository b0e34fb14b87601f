import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SUBTASK_LIMITS } from '../../../../domain/constants';
import type { SubtaskListDto, TaskDto } from '../../../../domain/schemas/task';
import { api } from '../../../lib/api-client';
import { toastError } from '../../../lib/errors';
import { taskPartKeys } from './get-attachments';
import { invalidateTasks } from './prefetch-board';
import { createTask } from './save-task';

export const subtaskKeys = {
  /** Under the task's detail keys ('tasks' root): realtime events and every task write refresh an open list. */
  of: (taskId: string) => [...taskPartKeys.detail(taskId), 'subtasks'] as const,
};

export const getSubtasks = (taskId: string, signal?: AbortSignal) =>
  api.get<SubtaskListDto>(`/api/tasks/${taskId}/subtasks`, { signal });
export const reorderSubtasks = (taskId: string, ids: string[]) =>
  api.put<SubtaskListDto>(`/api/tasks/${taskId}/subtasks/order`, { ids });

/** The task's direct sub-tasks in their order (canceled ones included). */
export const subtasksQueryOptions = (taskId: string) =>
  queryOptions({
    queryKey: subtaskKeys.of(taskId),
    queryFn: ({ signal }) => getSubtasks(taskId, signal),
    select: (data) => data.tasks,
  });

export const useSubtasks = (taskId: string, enabled = true) => useQuery({ ...subtasksQueryOptions(taskId), enabled });

/**
 * 'Add sub-task': one at a time and in order (a scope), so titles typed quickly one after another keep their order;
 * the list and the parent's counts refresh once the server has each.
 */
export function useAddSubtask(parent: Pick<TaskDto, 'id' | 'projectId'>) {
  const qc = useQueryClient();
  return useMutation({
    scope: { id: `subtasks:${parent.id}` },
    mutationFn: ({ title, status }: { title: string; status: string }) =>
      createTask({
        title,
        description: null,
        status,
        projectId: parent.projectId,
        parentId: parent.id,
        priority: 'medium',
        assigneeId: null,
        dueDate: null,
        startDate: null,
        tags: [],
      }),
    onSettled: () => invalidateTasks(qc),
  });
}

/** A new order, shown at once; the previous one comes back with a toast if the server refuses it. */
export function useReorderSubtasks(taskId: string) {
  const qc = useQueryClient();
  const key = subtaskKeys.of(taskId);
  return useMutation({
    scope: { id: `subtasks:${taskId}` },
    mutationFn: (ids: string[]) => reorderSubtasks(taskId, ids),
    onMutate: async (ids) => {
      await qc.cancelQueries({ queryKey: key });
      const snapshot = qc.getQueryData<SubtaskListDto>(key);
      if (snapshot) {
        const byId = new Map(snapshot.tasks.map((t) => [t.id, t]));
        qc.setQueryData<SubtaskListDto>(key, { tasks: ids.flatMap((id) => byId.get(id) ?? []) });
      }
      return { snapshot };
    },
    onSuccess: (answer) => qc.setQueryData<SubtaskListDto>(key, answer),
    onError: (error, _ids, context) => {
      if (context?.snapshot) qc.setQueryData(key, context.snapshot);
      toastError(error, 'Failed to reorder the sub-tasks');
    },
    onSettled: () => invalidateTasks(qc),
  });
}

/**
 * How many tasks deleting `taskId` takes with it: its whole subtree, canceled sub-tasks included (the cascade deletes
 * them all). The DTO's counts leave canceled ones out, so the tree is walked, a level at a time (at most
 * SUBTASK_LIMITS.maxDepth − 1 levels under the task), one request per task that could have sub-tasks.
 */
export async function countSubtree(taskId: string, signal?: AbortSignal): Promise<number> {
  let count = 0;
  let level = [taskId];
  for (let depth = 1; depth < SUBTASK_LIMITS.maxDepth && level.length > 0; depth++) {
    const answers = await Promise.all(level.map((id) => getSubtasks(id, signal)));
    level = answers.flatMap((a) => a.tasks.map((t) => t.id));
    count += level.length;
  }
  return count;
}

/** The subtree's size while the delete confirmation is open (undefined until counted). */
export const useSubtreeCount = (taskId: string, enabled: boolean) =>
  useQuery({
    queryKey: [...subtaskKeys.of(taskId), 'subtree-count'] as const,
    queryFn: ({ signal }) => countSubtree(taskId, signal),
    enabled,
    staleTime: 0,
  });
