import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { TaskStatus } from '../../../../domain/constants';
import { MSG } from '../../../../domain/messages';
import type { TaskDto } from '../../../../domain/schemas/task';
import { api } from '../../../lib/api-client';
import { toastError } from '../../../lib/errors';
import type { TaskPages } from './get-tasks';
import { invalidateTasks } from './prefetch-board';
import { taskKeys } from './task-keys';

export const moveTask = (id: string, status: TaskStatus) => api.patch<TaskDto>(`/api/tasks/${id}/status`, { status });

/** Takes the task out of whichever page holds it; every page's counts drop by one. */
const removeFrom = (data: TaskPages, task: TaskDto): TaskPages => ({
  ...data,
  pages: data.pages.map((p) => ({
    ...p,
    tasks: p.tasks.filter((t) => t.id !== task.id),
    counts: { ...p.counts, [task.status]: Math.max(0, (p.counts[task.status] ?? 1) - 1) },
    total: Math.max(0, p.total - 1),
  })),
});

/** Puts the task into the first page in newest-first order, counting it. */
const insertInto = (data: TaskPages, task: TaskDto): TaskPages => ({
  ...data,
  pages: data.pages.map((p, i) => {
    const counted = { ...p, counts: { ...p.counts, [task.status]: (p.counts[task.status] ?? 0) + 1 }, total: p.total + 1 };
    if (i !== 0) return counted;
    const tasks = p.tasks.filter((t) => t.id !== task.id);
    const at = tasks.findIndex((t) => t.createdAt < task.createdAt);
    tasks.splice(at < 0 ? tasks.length : at, 0, task);
    return { ...counted, tasks };
  }),
});

const setStatusIn = (data: TaskPages, id: string, status: TaskStatus): TaskPages => ({
  ...data,
  pages: data.pages.map((p) => ({ ...p, tasks: p.tasks.map((t) => (t.id === id ? { ...t, status } : t)) })),
});

/** Writes the saved copy (new version) wherever the task is cached. */
const replaceIn = (data: TaskPages, saved: TaskDto): TaskPages => ({
  ...data,
  pages: data.pages.map((p) => ({ ...p, tasks: p.tasks.map((t) => (t.id === saved.id ? { ...t, ...saved } : t)) })),
});

interface MoveVars {
  task: TaskDto;
  status: TaskStatus;
}

/**
 * The drag move: shows at once (optimistic cache write), then saves only the status. On failure the
 * snapshot comes back (the card returns to its column), the error is logged and the spec's toast shows.
 */
export function useMoveTask() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ task, status }: MoveVars) => moveTask(task.id, status),
    onMutate: async ({ task, status }: MoveVars) => {
      await qc.cancelQueries({ queryKey: taskKeys.all });
      const snapshot = qc.getQueriesData({ queryKey: taskKeys.all });
      const moved = { ...task, status };
      for (const [key, data] of qc.getQueriesData<TaskPages>({ queryKey: taskKeys.columns() })) {
        if (!data?.pages.some((p) => p.tasks.some((t) => t.id === task.id))) continue;
        qc.setQueryData<TaskPages>(key, removeFrom(data, task));
        // The same filters' column for the new status.
        const target: QueryKey = [...key.slice(0, -1), status];
        const targetData = qc.getQueryData<TaskPages>(target);
        if (targetData) qc.setQueryData<TaskPages>(target, insertInto(targetData, moved));
      }
      for (const [key, data] of qc.getQueriesData<TaskPages>({ queryKey: taskKeys.lists() })) {
        if (data) qc.setQueryData<TaskPages>(key, setStatusIn(data, task.id, status));
      }
      return { snapshot };
    },
    onSuccess: (saved) => {
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
