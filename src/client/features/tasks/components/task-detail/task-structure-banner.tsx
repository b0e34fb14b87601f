import { Ban, CornerLeftUp } from 'lucide-react';
import type { TaskDto } from '../../../../../domain/schemas/task';
import { useTask } from '../../api/get-task';
import { TaskLink } from './task-link';

/** 'Blocked by 2 open tasks' (one: 'open task'). */
export const blockedLineText = (count: number) => `Blocked by ${count} open ${count === 1 ? 'task' : 'tasks'}`;

/**
 * The top of a task's page: its parent as a link ('Sub-task of …') and, while any blocker is open, 'Blocked by N open
 * tasks' (the Dependencies section, further down, says by which). Reads the task's live copy, so adding or removing a
 * blocker updates it.
 */
export function TaskStructureBanner({ task }: { task: TaskDto }) {
  const live = useTask(task.id, true).data ?? task;
  const parent = useTask(live.parentId ?? '', Boolean(live.parentId));
  if (!live.parentId && live.blockedCount <= 0) return null;
  return (
    <div className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
      {live.parentId && (
        <p className="inline-flex min-w-0 items-center gap-1.5 text-slate-700 dark:text-slate-200">
          <CornerLeftUp className="h-4 w-4 shrink-0" aria-hidden />
          <span>Sub-task of</span>
          {parent.data ? (
            <TaskLink taskId={live.parentId}>{parent.data.title}</TaskLink>
          ) : (
            <TaskLink taskId={live.parentId}>{parent.isError ? 'its parent task' : '…'}</TaskLink>
          )}
        </p>
      )}
      {live.blockedCount > 0 && (
        <p
          className="inline-flex items-center gap-1.5 rounded-md border border-amber-300 bg-amber-50 px-2 py-0.5 font-medium text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
          data-testid="blocked-line"
        >
          <Ban className="h-4 w-4 shrink-0" aria-hidden />
          {blockedLineText(live.blockedCount)}
        </p>
      )}
    </div>
  );
}
