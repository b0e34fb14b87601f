import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { MSG } from '../../../../domain/messages';
import { DEFAULT_STATUSES } from '../../../../domain/workflow';
import type { TaskDto } from '../../../../domain/schemas/task';
import { api } from '../../../lib/api-client';
import { toastError } from '../../../lib/errors';
import { rootKey } from '../../../lib/query-keys';
import { myWorkKeys } from './my-work-keys';

/** The board's status move (PATCH /api/tasks/:id/status). */
export const changeTaskStatus = (id: string, status: string) => api.patch<TaskDto>(`/api/tasks/${id}/status`, { status });

interface ChangeVars {
  task: TaskDto;
  /** A status key (the menu offers the default four; Undo puts back whatever key the task had). */
  status: string;
}

/** A default key's category, shown at once (a key of another workflow waits for the answer). */
const categoryOf = (status: string): Partial<TaskDto> => {
  const found = DEFAULT_STATUSES.find((s) => s.key === status);
  return found ? { statusCategory: found.category } : {};
};

const patchIn = (list: TaskDto[] | undefined, id: string, change: Partial<TaskDto>) =>
  list?.map((t) => (t.id === id ? { ...t, ...change } : t));

/**
 * A card's quick status change: shown at once (a completed task leaves the list), saved, and on failure put back with
 * a toast. Completing a task offers 'Undo' in its toast.
 */
export function useChangeTaskStatus() {
  const qc = useQueryClient();
  const mutation = useMutation({
    mutationFn: ({ task, status }: ChangeVars) => changeTaskStatus(task.id, status),
    onMutate: async ({ task, status }: ChangeVars) => {
      await qc.cancelQueries({ queryKey: myWorkKeys.all });
      const snapshot = qc.getQueriesData<TaskDto[]>({ queryKey: myWorkKeys.all });
      qc.setQueriesData<TaskDto[]>({ queryKey: myWorkKeys.all }, (list) =>
        patchIn(list, task.id, { status, ...categoryOf(status) }),
      );
      return { snapshot };
    },
    onSuccess: (saved, { task }) => {
      qc.setQueriesData<TaskDto[]>({ queryKey: myWorkKeys.all }, (list) => patchIn(list, saved.id, saved));
      if (saved.statusCategory === 'completed' && task.statusCategory !== 'completed') {
        toast.success(`“${saved.title}” completed`, {
          action: { label: 'Undo', onClick: () => mutation.mutate({ task: saved, status: task.status }) },
        });
      }
    },
    onError: (error, _vars, context) => {
      for (const [key, data] of context?.snapshot ?? []) qc.setQueryData(key, data);
      toastError(error, MSG.taskStatusFailed);
    },
    // The board, the lists and My work itself read the saved task again.
    onSettled: () => qc.invalidateQueries({ queryKey: rootKey('tasks') }),
  });
  return mutation;
}
