import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { toast } from 'sonner';
import { blockedToastText } from '../../../../domain/dependencies';
import { MSG } from '../../../../domain/messages';
import type { TaskDto } from '../../../../domain/schemas/task';
import { api } from '../../../lib/api-client';
import { toastError } from '../../../lib/errors';
import { columnIdOf, type DropPatch } from '../board/board-model';
import type { TaskPages } from './get-tasks';
import { updateTask } from './save-task';
import { invalidateTasks } from './prefetch-board';
import { taskKeys } from './task-keys';

export const moveTask = (id: string, status: string) => api.patch<TaskDto>(`/api/tasks/${id}/status`, { status });

/**
 * A drop's write: the status alone as before (PATCH …/status), or with a lane's field (or `completeSubtasks`, the
 * answer to 'Complete its open sub-tasks too?') in one PATCH of the task.
 */
export const saveDrop = (id: string, patch: DropPatch & { completeSubtasks?: boolean }) =>
  Object.keys(patch).length === 1 && patch.status !== undefined ? moveTask(id, patch.status) : updateTask(id, patch);

/** Takes the task out of whichever page holds it; every page's count of the column drops by one. */
const removeFrom = (data: TaskPages, task: TaskDto, column: string): TaskPages => ({
  ...data,
  pages: data.pages.map((p) => ({
    ...p,
    tasks: p.tasks.filter((t) => t.id !== task.id),
    counts: { ...p.counts, [column]: Math.max(0, (p.counts[column] ?? 1) - 1) },
    total: Math.max(0, p.total - 1),
  })),
});

/** Puts the task into the first page in newest-first order, counting it. */
const insertInto = (data: TaskPages, task: TaskDto, column: string): TaskPages => ({
  ...data,
  pages: data.pages.map((p, i) => {
    const counted = { ...p, counts: { ...p.counts, [column]: (p.counts[column] ?? 0) + 1 }, total: p.total + 1 };
    if (i !== 0) return counted;
    const tasks = p.tasks.filter((t) => t.id !== task.id);
    const at = tasks.findIndex((t) => t.createdAt < task.createdAt);
    tasks.splice(at < 0 ? tasks.length : at, 0, task);
    return { ...counted, tasks };
  }),
});

/** Writes the saved copy (new version), or the moved one, wherever the task is cached. */
const replaceIn = (data: TaskPages, saved: TaskDto): TaskPages => ({
  ...data,
  pages: data.pages.map((p) => ({ ...p, tasks: p.tasks.map((t) => (t.id === saved.id ? { ...t, ...saved } : t)) })),
});

interface MoveVars {
  task: TaskDto;
  /** What the drop writes (dropPatch). */
  patch: DropPatch;
  /** The task as it shows until the answer comes (its new status, category and lane field). */
  moved: TaskDto;
  /** Yes to 'Complete its open sub-tasks too?': they are completed in the same change. */
  completeSubtasks?: boolean;
}

/**
 * A blocked task moved into a started status: the move stands, and the toast says how many blockers are open (issue
 * 37). Wherever a status changes (the board's drag, the task page).
 */
export function toastIfBlocked(before: Pick<TaskDto, 'statusCategory'>, saved: Pick<TaskDto, 'statusCategory' | 'blockedCount'>) {
  if (before.statusCategory === 'started' || saved.statusCategory !== 'started') return;
  const text = blockedToastText(saved.blockedCount);
  if (text) toast.warning(text);
}

/**
 * The drag move: shows at once (optimistic cache write), then saves only what the drop changes. On failure the
 * snapshot comes back (the card returns to its column), the error is logged and the spec's toast shows.
 */
export function useMoveTask() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ task, patch, completeSubtasks }: MoveVars) =>
      saveDrop(task.id, completeSubtasks ? { ...patch, completeSubtasks: true } : patch),
    onMutate: async ({ task, moved }: MoveVars) => {
      await qc.cancelQueries({ queryKey: taskKeys.all });
      const snapshot = qc.getQueriesData({ queryKey: taskKeys.all });
      for (const [key, data] of qc.getQueriesData<TaskPages>({ queryKey: taskKeys.columns() })) {
        if (!data?.pages.some((p) => p.tasks.some((t) => t.id === task.id))) continue;
        // The key ends with the column: its kind ('status' or 'category') and its id.
        const kind = key.at(-2) === 'category' ? 'category' : 'status';
        const from = String(key.at(-1));
        const to = columnIdOf(moved, kind);
        if (to === from) {
          qc.setQueryData<TaskPages>(key, replaceIn(data, moved));
          continue;
        }
        qc.setQueryData<TaskPages>(key, removeFrom(data, task, from));
        // The same filters' column the task moves to.
        const target: QueryKey = [...key.slice(0, -1), to];
        const targetData = qc.getQueryData<TaskPages>(target);
        if (targetData) qc.setQueryData<TaskPages>(target, insertInto(targetData, moved, to));
      }
      for (const [key, data] of qc.getQueriesData<TaskPages>({ queryKey: taskKeys.lists() })) {
        if (data) qc.setQueryData<TaskPages>(key, replaceIn(data, moved));
      }
      return { snapshot };
    },
    onSuccess: (saved, { task }) => {
      toastIfBlocked(task, saved);
      // Opening the card right after a move must edit the new version, not the one dragged.
      for (const [key, data] of qc.getQueriesData<TaskPages>({ queryKey: taskKeys.all })) {
        if (data?.pages) qc.setQueryData<TaskPages>(key, replaceIn(data, saved));
      }
    },
    onError: (error, _vars, context) => {
      for (const [key, data] of context?.snapshot ?? []) qc.setQueryData(key, data);
      toastError(error, MSG.taskStatusFailed);
    },
    onSettled: () => invalidateTasks(qc),
  });
}
