import { Ban, Calendar, Clock, ListChecks, ListTree, MessageSquare, Paperclip, User } from 'lucide-react';
import { type KeyboardEvent, lazy, memo, Suspense, useId, useMemo } from 'react';
import { LIMITS } from '../../../../domain/constants';
import { DEPENDENCY_TEXT } from '../../../../domain/dependencies';
import { subtaskProgress } from '../../../../domain/hierarchy';
import type { TaskDto } from '../../../../domain/schemas/task';
import { PriorityBadge, StatusChip, type StatusLook, WorkflowStatusChip } from '../../../components/task-visuals';
import { Badge } from '../../../components/ui/badge';
import { cn } from '../../../lib/cn';
import { defaultLookOf } from '../../../lib/default-column';
import { useDraggableTask } from '../../../components/task-drag';
import { formatCardDate } from './task-meta';
import { CARD_MENU_KEYS, useCardMenuTrigger } from './card-menu-host';
import { cardTimeLabel, cardTimeText } from './card-time';
import { RepeatMark } from './repeat-mark';
import { markdownPreview } from '../../../../domain/markdown-text';

/**
 * The values of the fields shown on cards (issue 38), loaded after the board's start-up script (its budget): only a
 * card with values draws them, once their code is in.
 */
const CardFields = lazy(() =>
  import('./card-fields').then(
    (m) => ({ default: m.CardFields }),
    // Its code could not be loaded (offline, a newer deployment): the card goes without them rather than failing.
    () => ({ default: () => null }),
  ),
);

interface TaskCardViewProps {
  task: TaskDto;
  isOverdue?: boolean;
  className?: string;
  titleId?: string;
  /** The task's own status in its project's workflow (its name and colour), when the board knows it. */
  status?: StatusLook;
}

/** What a card shows (spec §2 'Task card'); used by the draggable card and the drag overlay. Memoised: every
 * draggable re-renders when a drag starts or changes column, its content need not. */
export const TaskCardView = memo(function TaskCardView({ task, isOverdue, className, titleId, status }: TaskCardViewProps) {
  const shown = task.tags.slice(0, LIMITS.cardTags);
  const more = task.tags.length - shown.length;
  return (
    <div
      className={cn(
        'rounded-lg border border-slate-200 bg-white p-3 text-left shadow-sm dark:border-slate-700 dark:bg-slate-800',
        className,
      )}
    >
      <h3 id={titleId} className="break-words text-sm font-semibold text-slate-900 dark:text-slate-100">
        {task.title}
      </h3>
      {task.description && (
        <p className="mt-1 line-clamp-2 break-words text-xs text-slate-600 dark:text-slate-300">
          {markdownPreview(task.description)}
        </p>
      )}
      <div className="mt-2 flex flex-wrap items-center gap-1.5">
        {status ? <WorkflowStatusChip status={status} /> : <StatusChip status={defaultLookOf(task)} />}
        <PriorityBadge priority={task.priority} />
        <BlockedBadge task={task} />
      </div>
      {task.tags.length > 0 && (
        <ul className="mt-2 flex flex-wrap gap-1" aria-label="Tags">
          {shown.map((tag) => (
            <li
              key={tag}
              className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700 dark:bg-slate-700 dark:text-slate-200"
            >
              {tag}
            </li>
          ))}
          {more > 0 && (
            <li
              className="px-1 py-0.5 text-xs text-slate-600 dark:text-slate-300"
              title={task.tags.slice(LIMITS.cardTags).join(', ')}
            >
              +{more}
            </li>
          )}
        </ul>
      )}
      <div className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600 dark:text-slate-300">
        {task.assignee && (
          <span className="inline-flex items-center gap-1" title={task.assignee.fullName}>
            <User className="h-3.5 w-3.5" aria-hidden />
            {task.assignee.firstName}
          </span>
        )}
        {task.dueDate && (
          <span
            className={cn('inline-flex items-center gap-1', isOverdue && 'font-semibold text-red-700 dark:text-red-400')}
            title={isOverdue ? 'Overdue' : 'Due date'}
          >
            <Calendar className="h-3.5 w-3.5" aria-hidden />
            <time dateTime={task.dueDate}>{formatCardDate(task.dueDate)}</time>
          </span>
        )}
        <RepeatMark task={task} />
        <span className="ml-auto inline-flex items-center gap-3">
          <TimeFigure task={task} />
          <SubtaskProgress task={task} />
          {task.checklistTotal > 0 && (
            <span
              className={cn(
                'inline-flex items-center gap-1',
                task.checklistDone === task.checklistTotal && 'font-semibold text-green-700 dark:text-green-400',
              )}
              title="Checklist"
            >
              <ListChecks className="h-3.5 w-3.5" aria-hidden />
              <span aria-hidden>
                {task.checklistDone}/{task.checklistTotal}
              </span>
              <span className="sr-only">
                {task.checklistDone} of {task.checklistTotal} checklist items done
              </span>
            </span>
          )}
          <span className="inline-flex items-center gap-1" title="Comments">
            <MessageSquare className="h-3.5 w-3.5" aria-hidden />
            <span aria-hidden>{task.commentCount}</span>
            <span className="sr-only">{task.commentCount} comments</span>
          </span>
          <span className="inline-flex items-center gap-1" title="Attachments">
            <Paperclip className="h-3.5 w-3.5" aria-hidden />
            <span aria-hidden>{task.attachmentCount}</span>
            <span className="sr-only">{task.attachmentCount} attachments</span>
          </span>
        </span>
      </div>
      {task.fields && Object.keys(task.fields).length > 0 && (
        <Suspense fallback={null}>
          <CardFields task={task} />
        </Suspense>
      )}
    </div>
  );
});

/** 'Blocked' while any of the task's blockers is open: the word and an icon, never colour alone. */
export function BlockedBadge({ task }: { task: Pick<TaskDto, 'blockedCount'> }) {
  if (task.blockedCount <= 0) return null;
  const open = `${task.blockedCount} open ${task.blockedCount === 1 ? 'task' : 'tasks'}`;
  return (
    <Badge tone="warning" className="gap-1">
      <Ban className="h-3 w-3 shrink-0" aria-hidden />
      {DEPENDENCY_TEXT.blocked}
      <span className="sr-only"> by {open}</span>
    </Badge>
  );
}

/** Logged/estimate ('1h 30m / 5h', '1h 30m · 3 pts') when either is set (issue 39), read as a sentence. */
export function TimeFigure({ task }: { task: Parameters<typeof cardTimeText>[0] }) {
  const text = cardTimeText(task);
  if (text === null) return null;
  return (
    <span className="inline-flex items-center gap-1 tabular-nums" title="Time logged" data-testid="card-time">
      <Clock className="h-3.5 w-3.5" aria-hidden />
      <span aria-hidden>{text}</span>
      <span className="sr-only">{cardTimeLabel(task)}</span>
    </span>
  );
}

/** The sub-tasks' 'n/m' (completed ÷ all but canceled) when the task has any, read '2 of 3 sub-tasks done'. */
export function SubtaskProgress({ task }: { task: Pick<TaskDto, 'subtaskCounts'> }) {
  const { done, total } = task.subtaskCounts;
  if (total <= 0) return null;
  return (
    <span
      className={cn('inline-flex items-center gap-1', done === total && 'font-semibold text-green-700 dark:text-green-400')}
      title="Sub-tasks"
      data-testid="subtask-counts"
    >
      <ListTree className="h-3.5 w-3.5" aria-hidden />
      <span aria-hidden>{subtaskProgress(task.subtaskCounts)}</span>
      <span className="sr-only">
        {done} of {total} sub-tasks done
      </span>
    </span>
  );
}

/** A card on the board. Off-screen cards skip style, layout and paint (content-visibility) until they scroll into
 * view; their last drawn height is kept, 9rem before the first time. */
const BOARD_CARD_CLASS = 'hover:border-brand-600/60 [content-visibility:auto] [contain-intrinsic-size:auto_9rem]';

interface DraggableTaskCardProps {
  task: TaskDto;
  isOverdue: boolean;
  status?: StatusLook;
  onOpen: (task: TaskDto) => void;
  /** True while any drag is under way: Enter then ends the drag instead of opening the card. */
  isDragActive: () => boolean;
  /** Whether the caller may change the task (issue 41): a card they may not change opens but never moves. */
  canMove?: boolean;
}

/**
 * A board card: click or Enter opens it; pointer drag or Space picks it up; right-click or Shift+F10 opens its menu.
 *
 * useDraggable subscribes every card to the drag state, so all of them render again when a drag starts,
 * ends or changes column. That render is kept to the hook and one div: the data, the handlers and the
 * card's content are memoised, so React reuses the content without comparing it again.
 */
export const DraggableTaskCard = memo(function DraggableTaskCard({
  task,
  isOverdue,
  status,
  onOpen,
  isDragActive,
  canMove = true,
}: DraggableTaskCardProps) {
  const titleId = useId();
  const { handleProps, setNodeRef, isDragging } = useDraggableTask(task, onOpen, isDragActive, canMove);
  // Its menu (on the board): right-click or Shift+F10, on the card itself, so it adds no tab stop.
  const menu = useCardMenuTrigger(task, onOpen, isDragActive);
  const menuProps = menu && {
    onContextMenu: menu.onContextMenu,
    onKeyDown: (e: KeyboardEvent<HTMLDivElement>) => menu.onKeyDown(e) || handleProps.onKeyDown(e),
    'aria-keyshortcuts': CARD_MENU_KEYS,
  };
  const content = useMemo(
    () => <TaskCardView task={task} isOverdue={isOverdue} titleId={titleId} status={status} className={BOARD_CARD_CLASS} />,
    [task, isOverdue, titleId, status],
  );
  return (
    <div
      ref={setNodeRef}
      {...handleProps}
      {...menuProps}
      role="button"
      tabIndex={0}
      aria-labelledby={titleId}
      data-testid="task-card"
      className={cn(
        // Relative: its menu's anchor is placed inside it (card-menu.tsx).
        'relative touch-manipulation rounded-lg outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2 dark:focus-visible:ring-offset-slate-900',
        canMove ? 'cursor-grab' : 'cursor-pointer',
        isDragging && 'opacity-40',
      )}
    >
      {content}
    </div>
  );
});
