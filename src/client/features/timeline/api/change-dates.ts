import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { TaskDto } from '../../../../domain/schemas/task';
import type { TimelineAnswer, TimelineTask } from '../../../../domain/schemas/timeline';
import { api } from '../../../lib/api-client';
import { errorText, isError, logError } from '../../../lib/errors';
import { rootKey } from '../../../lib/query-keys';
import type { DateChange } from '../timeline-layout';
import { timelineKeys } from './timeline-keys';

export const CHANGE_FAILED = 'Failed to change the dates';
/** How many changes Ctrl/Cmd+Z can take back, last first. */
const UNDO_DEPTH = 20;

/** One change of a task's dates: what it had and what it was given (undo sends `before` back). */
export interface DatesEdit {
  taskId: string;
  title: string;
  before: DateChange;
  after: DateChange;
}

/** The answer with the task at `dates`: a dated task stays in its row; one given dates leaves 'Unscheduled', and back. */
export function withDates(answer: TimelineAnswer, task: TimelineTask, dates: DateChange): TimelineAnswer {
  const next = { ...task, ...dates };
  const isDated = dates.startDate !== null || dates.dueDate !== null;
  const inTasks = answer.tasks.some((t) => t.id === task.id);
  const inUnscheduled = answer.unscheduled.some((t) => t.id === task.id);
  const tasks = inTasks
    ? isDated
      ? answer.tasks.map((t) => (t.id === task.id ? { ...t, ...dates } : t))
      : answer.tasks.filter((t) => t.id !== task.id)
    : isDated
      ? [...answer.tasks, next]
      : answer.tasks;
  const unscheduled = inUnscheduled
    ? isDated
      ? answer.unscheduled.filter((t) => t.id !== task.id)
      : answer.unscheduled
    : isDated
      ? answer.unscheduled
      : [next, ...answer.unscheduled];
  const unscheduledTotal = answer.unscheduledTotal + (unscheduled.length - answer.unscheduled.length);
  const dependencies = isDated
    ? answer.dependencies
    : answer.dependencies.filter((d) => d.taskId !== task.id && d.blockedById !== task.id);
  return { ...answer, tasks, unscheduled, unscheduledTotal, dependencies };
}

const patchDates = (id: string, dates: DateChange, version: number) =>
  api.patch<TaskDto>(`/api/tasks/${id}`, { startDate: dates.startDate, dueDate: dates.dueDate, version });

/** The task as the cached answers have it now (the version the next save must send). */
function cachedTask(qc: QueryClient, id: string): TimelineTask | undefined {
  for (const [, data] of qc.getQueriesData<TimelineAnswer>({ queryKey: timelineKeys.all() })) {
    const found = data?.tasks.find((t) => t.id === id) ?? data?.unscheduled.find((t) => t.id === id);
    if (found) return found;
  }
  return undefined;
}

function writeAll(qc: QueryClient, id: string, change: (answer: TimelineAnswer, task: TimelineTask) => TimelineAnswer) {
  for (const [key, data] of qc.getQueriesData<TimelineAnswer>({ queryKey: timelineKeys.all() })) {
    if (!data) continue;
    const task = data.tasks.find((t) => t.id === id) ?? data.unscheduled.find((t) => t.id === id);
    if (task) qc.setQueryData<TimelineAnswer>(key, change(data, task));
  }
}

/** A task's saves go one after the other: each sends the version the previous one answered. */
const queues = new Map<string, Promise<unknown>>();
let pending = 0;

/**
 * Changing dates on the timeline: the bar moves at once (every cached window is written), then the dates are saved
 * through PATCH /api/tasks/:id with the version they were changed at, a task's saves in order. A refusal puts the
 * dates back and toasts why ('Start date must be on or before the due date', 'changed by someone else'). When nothing
 * is left to save, the timeline and the other task views are read again. Ctrl/Cmd+Z (`undo`) sends the last change's
 * previous dates back.
 */
export function useDateChanges(announce: (text: string) => void) {
  const qc = useQueryClient();
  const history = useRef<DatesEdit[]>([]);
  const [canUndo, setCanUndo] = useState(false);

  const save = useCallback(
    (task: TimelineTask, before: DateChange, after: DateChange) => {
      void qc.cancelQueries({ queryKey: timelineKeys.all() });
      writeAll(qc, task.id, (answer, t) => withDates(answer, t, after));
      pending += 1;
      const run = async () => {
        const version = cachedTask(qc, task.id)?.version ?? task.version;
        try {
          const saved = await patchDates(task.id, after, version);
          const fresh = (x: TimelineTask) => (x.id === task.id ? { ...x, version: saved.version } : x);
          // A later change of this task waiting its turn keeps its dates on screen; only the version is taken.
          const isLast = queues.get(task.id) === next;
          writeAll(qc, task.id, (answer, t) => {
            const dated = isLast ? withDates(answer, t, { startDate: saved.startDate, dueDate: saved.dueDate }) : answer;
            return { ...dated, tasks: dated.tasks.map(fresh), unscheduled: dated.unscheduled.map(fresh) };
          });
        } catch (error) {
          writeAll(qc, task.id, (answer, t) => withDates(answer, t, before));
          logError(CHANGE_FAILED, error);
          const text = errorText(error, CHANGE_FAILED);
          toast.error(text, { description: `"${task.title}" is back at its dates.` });
          announce(`${text}. ${task.title} is back at its dates.`);
          history.current = history.current.filter((e) => e.taskId !== task.id);
          setCanUndo(history.current.length > 0);
          if (isError(error, 'stale_edit')) void qc.invalidateQueries({ queryKey: timelineKeys.all() });
        } finally {
          pending -= 1;
          if (pending === 0) void qc.invalidateQueries({ queryKey: rootKey('tasks') });
        }
      };
      const next = (queues.get(task.id) ?? Promise.resolve()).then(run);
      queues.set(task.id, next);
      void next.finally(() => {
        if (queues.get(task.id) === next) queues.delete(task.id);
      });
    },
    [qc, announce],
  );

  /** Sets the task's dates, remembers the change for undo, and says `message`. */
  const change = useCallback(
    (task: TimelineTask, after: DateChange, message: string) => {
      const before = { startDate: task.startDate, dueDate: task.dueDate };
      if (before.startDate === after.startDate && before.dueDate === after.dueDate) return;
      history.current = [...history.current.slice(1 - UNDO_DEPTH), { taskId: task.id, title: task.title, before, after }];
      setCanUndo(true);
      save(task, before, after);
      announce(message);
    },
    [save, announce],
  );

  /** Takes the last change back; returns the edit undone (the caller words the announcement), or null. */
  const undo = useCallback((): DatesEdit | null => {
    const last = history.current.at(-1);
    if (!last) return null;
    history.current = history.current.slice(0, -1);
    setCanUndo(history.current.length > 0);
    const task = cachedTask(qc, last.taskId);
    if (!task) return null;
    save(task, { startDate: task.startDate, dueDate: task.dueDate }, last.before);
    return last;
  }, [qc, save]);

  return { change, undo, canUndo };
}
