import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { shortDayLabel } from '../../../../domain/calendar';
import type { TaskDto } from '../../../../domain/schemas/task';
import { api } from '../../../lib/api-client';
import { errorText, logError } from '../../../lib/errors';
import { rootKey } from '../../../lib/query-keys';
import { movedDates } from '../components/span-layout';
import { calendarKeys } from './calendar-keys';

export const setTaskDueDate = (task: TaskDto, dueDate: string) =>
  api.patch<TaskDto>(`/api/tasks/${task.id}`, { ...movedDates(task, dueDate), version: task.version });

interface MoveVars {
  task: TaskDto;
  dueDate: string;
}

const withTask = (list: TaskDto[] | undefined, id: string, change: (t: TaskDto) => TaskDto) =>
  list?.map((t) => (t.id === id ? change(t) : t));

/** Texts of this feature (kept here, not in domain/messages.ts: see the common brief). */
export const MOVE_FAILED = 'Failed to change the due date';

/**
 * A drop on another day: the task shows there at once (every cached calendar range is written), then only its due
 * date is saved, checked against the version it was dragged at. On failure the snapshot comes back (the task
 * returns to its day) and a toast says why and where it is.
 */
export function useMoveTaskDate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ task, dueDate }: MoveVars) => setTaskDueDate(task, dueDate),
    onMutate: async ({ task, dueDate }: MoveVars) => {
      await qc.cancelQueries({ queryKey: calendarKeys.all() });
      const snapshot = qc.getQueriesData<TaskDto[]>({ queryKey: calendarKeys.all() });
      for (const [key, data] of snapshot) {
        qc.setQueryData<TaskDto[]>(
          key,
          withTask(data, task.id, (t) => ({ ...t, ...movedDates(t, dueDate) })),
        );
      }
      return { snapshot };
    },
    onSuccess: (saved) => {
      // A second drag of the same task must send the new version.
      for (const [key, data] of qc.getQueriesData<TaskDto[]>({ queryKey: calendarKeys.all() })) {
        qc.setQueryData<TaskDto[]>(
          key,
          withTask(data, saved.id, (t) => ({ ...t, ...saved })),
        );
      }
    },
    onError: (error, { task }, context) => {
      for (const [key, data] of context?.snapshot ?? []) qc.setQueryData(key, data);
      logError(MOVE_FAILED, error);
      const back = task.dueDate ? ` It is back on ${shortDayLabel(task.dueDate)}.` : '';
      toast.error(errorText(error, MOVE_FAILED), { description: `"${task.title}" was not moved.${back}` });
    },
    // The board, the list and the task's page show the due date too.
    onSettled: () => qc.invalidateQueries({ queryKey: rootKey('tasks') }),
  });
}
