import { memo, useCallback, useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { TaskDto } from '../../../../domain/schemas/task';
import {
  PriorityIcon,
  priorityText,
  StatusIcon,
  statusTint,
  taskStatusName,
  useOwnStatus,
} from '../../../components/task-visuals';
import { cn } from '../../../lib/cn';
import { defaultLookOf } from '../../../lib/default-column';
import { useDraggableTask } from '../../../components/task-drag';
import { useWorkRights } from '../../../lib/use-work-rights';

export type ChipSize = 'compact' | 'full';

interface TaskChipViewProps {
  task: TaskDto;
  /** compact: one line (the month grid); full: the title on up to three lines, status and priority named. */
  size: ChipSize;
  /** A spanning task's days ('Wednesday, November 4, 2026 to …'): a line of the full chip, read out by the compact one. */
  days?: string;
  className?: string;
}

/** A task on the calendar: tinted and iconed by status, iconed (and in full, named) by priority. */
export const TaskChipView = memo(function TaskChipView({ task, size, days, className }: TaskChipViewProps) {
  const isDone = task.statusCategory === 'completed';
  // Tinted and iconed by its category's default look; named by its own status (a custom one once its project's load).
  const look = defaultLookOf(task);
  const statusName = taskStatusName(task, useOwnStatus(task));
  return (
    <div
      className={cn(
        'w-full min-w-0 rounded-md border text-left text-xs',
        size === 'compact' ? 'px-1.5 py-1' : 'px-2 py-1.5',
        statusTint(look),
        className,
      )}
    >
      <div className="flex min-w-0 items-center gap-1">
        <StatusIcon status={look} />
        <span
          className={cn(
            'min-w-0 flex-1 font-medium',
            size === 'compact' ? 'truncate' : 'line-clamp-3 break-words',
            isDone && 'line-through',
          )}
        >
          {task.title}
        </span>
        {size === 'compact' && <PriorityIcon priority={task.priority} />}
      </div>
      {size === 'full' ? (
        <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-0.5">
          <span>{statusName}</span>
          <span className="inline-flex items-center gap-0.5">
            <PriorityIcon priority={task.priority} />
            {priorityText(task.priority)}
          </span>
          {days && <span className="basis-full">{days}</span>}
        </div>
      ) : (
        <span className="sr-only">
          , {statusName}, {priorityText(task.priority)}
          {days && `, ${days}`}
        </span>
      )}
    </div>
  );
});

/** The chip's tooltip: the title, its status (its own name once known) and priority. */
const useChipTitle = (task: TaskDto) =>
  `${task.title} — ${taskStatusName(task, useOwnStatus(task))}, ${priorityText(task.priority)}`;

interface DraggableTaskChipProps {
  task: TaskDto;
  size: ChipSize;
  onOpen: (task: TaskDto) => void;
  /** True while any drag is under way: Enter then drops instead of opening the task. */
  isDragActive: () => boolean;
  /** Whether this chip should take focus when it appears (after a keyboard move to another day, or back). */
  takesFocus: (taskId: string) => boolean;
}

/**
 * A task in a day cell: a click or Enter opens it (/tasks/:id), a pointer drag or Space picks it up (dnd-kit, as the
 * board's cards do).
 */
export const DraggableTaskChip = memo(function DraggableTaskChip({
  task,
  size,
  onOpen,
  isDragActive,
  takesFocus,
}: DraggableTaskChipProps) {
  // A task the caller may not change (issue 41: a viewer's, a guest's unassigned one) opens but never moves.
  const canMove = useWorkRights().canEditTask(task);
  const { handleProps, setNodeRef, isDragging } = useDraggableTask(task, onOpen, isDragActive, canMove);
  const title = useChipTitle(task);
  const node = useRef<HTMLDivElement | null>(null);
  const setRef = useCallback(
    (el: HTMLDivElement | null) => {
      node.current = el;
      setNodeRef(el);
    },
    [setNodeRef],
  );
  // A chip moved by the keyboard lands in another cell, a new element: focus follows it there.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the chip appears
  useEffect(() => {
    if (takesFocus(task.id)) node.current?.focus();
  }, []);
  return (
    <div
      ref={setRef}
      {...handleProps}
      role="button"
      tabIndex={0}
      title={title}
      data-testid="calendar-task"
      data-task-id={task.id}
      className={cn(
        'touch-manipulation rounded-md outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-1 dark:focus-visible:ring-offset-slate-900',
        canMove ? 'cursor-grab' : 'cursor-pointer',
        isDragging && 'opacity-40',
      )}
    >
      <TaskChipView task={task} size={size} className="hover:border-brand-600" />
    </div>
  );
});

/** A task in a list (a day's full list, the agenda): a link to its page, not draggable. */
export function TaskLink({ task, size = 'full', days }: { task: TaskDto; size?: ChipSize; days?: string }) {
  const title = useChipTitle(task);
  return (
    <Link
      to={`/tasks/${task.id}`}
      // Closing the task goes back here (the task page treats it as opened from its board).
      state={{ fromBoard: true }}
      title={title}
      data-testid="calendar-task-link"
      className="block rounded-md outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-1 dark:focus-visible:ring-offset-slate-900"
    >
      <TaskChipView task={task} size={size} days={days} className="hover:border-brand-600" />
    </Link>
  );
}
