import { DndContext, type DragEndEvent, DragOverlay, type KeyboardCoordinateGetter, useDroppable } from '@dnd-kit/core';
import { Plus } from 'lucide-react';
import { memo, type ReactNode, startTransition, useCallback, useEffect, useMemo, useState } from 'react';
import { TASK_STATUS_LABELS, TASK_STATUSES, type TaskStatus } from '../../../../domain/constants';
import { MSG } from '../../../../domain/messages';
import type { TaskDto } from '../../../../domain/schemas/task';
import { localDate, matchesDueFilter } from '../../../../domain/task-filters';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { defaultColumnOf } from '../../../lib/default-column';
import { logError } from '../../../lib/errors';
import { type DropTargets, taskDragAnnouncements, taskOf, useTaskDrag } from '../../../components/task-drag';
import { flattenPages, useTaskColumn } from '../api/get-tasks';
import { useMoveTask } from '../api/move-task';
import type { TaskQueryFilters } from '../api/task-keys';
import { DraggableTaskCard, TaskCardView } from './task-card';

const label = (status: TaskStatus) => TASK_STATUS_LABELS[status];

const isStatus = (id: unknown): id is TaskStatus => TASK_STATUSES.includes(id as TaskStatus);

/** Left and right arrows jump the dragged card to the neighbouring column. */
const columnKeyboardCoordinates: KeyboardCoordinateGetter = (event, { context }) => {
  const { collisionRect, droppableRects } = context;
  if (!collisionRect) return undefined;
  const dir = event.code === 'ArrowRight' ? 1 : event.code === 'ArrowLeft' ? -1 : 0;
  if (event.code.startsWith('Arrow')) event.preventDefault();
  if (!dir) return undefined;
  const center = collisionRect.left + collisionRect.width / 2;
  const rects = TASK_STATUSES.map((s) => droppableRects.get(s)).filter((r): r is NonNullable<typeof r> => Boolean(r));
  const candidates = rects
    .filter((r) => (dir > 0 ? r.left > center : r.left + r.width < center))
    .sort((a, b) => (dir > 0 ? a.left - b.left : b.left - a.left));
  const target = candidates[0];
  if (!target) return undefined;
  return { x: target.left + (target.width - collisionRect.width) / 2, y: target.top + 8 };
};

const instructions =
  'To pick up a task, press Space. While dragging, use the left and right arrow keys to move it between columns. Press Space or Enter to drop it, or Escape to cancel. Press Enter to open the task.';

const columns: DropTargets = {
  nameOf: (id) => (isStatus(id) ? label(id) : null),
  holds: (task, id) => id === defaultColumnOf(task),
  one: 'a column',
  outside: 'the columns',
  at: 'in',
};
const announcements = taskDragAnnouncements(columns);

interface TaskBoardProps {
  filters: Omit<TaskQueryFilters, 'status'>;
  /** With a status filter, only that column has tasks. */
  statusFilter?: TaskStatus;
  onOpenTask: (task: TaskDto) => void;
  onAddTask: (status: TaskStatus) => void;
}

export function TaskBoard({ filters, statusFilter, onOpenTask, onAddTask }: TaskBoardProps) {
  const move = useMoveTask();
  const today = localDate(new Date());

  const onDrop = ({ active, over }: DragEndEvent) => {
    const task = taskOf(active.data.current);
    if (!task) {
      logError('Dragged task not found', active.id);
      return;
    }
    // Dropped outside every column, or where it already was: nothing to do.
    if (!over || !isStatus(over.id) || over.id === defaultColumnOf(task)) return;
    move.mutate({ task, status: over.id });
  };
  const { contextProps, activeTask, isDragActive, openTask } = useTaskDrag({
    keyboardCoordinates: columnKeyboardCoordinates,
    announcements,
    instructions,
    onOpenTask,
    onDrop,
  });

  return (
    <DndContext {...contextProps}>
      <div className="-mx-4 flex gap-4 overflow-x-auto px-4 pb-4 sm:mx-0 sm:px-0" data-testid="task-board">
        {TASK_STATUSES.map((status) => (
          <BoardColumn
            key={status}
            status={status}
            filters={filters}
            enabled={!statusFilter || statusFilter === status}
            today={today}
            onOpen={openTask}
            onAdd={onAddTask}
            isDragActive={isDragActive}
          />
        ))}
      </div>
      <DragOverlay dropAnimation={null}>
        {activeTask && (
          <TaskCardView
            task={activeTask}
            isOverdue={matchesDueFilter(activeTask, 'overdue', today)}
            className="w-full cursor-grabbing shadow-xl ring-2 ring-brand-600"
          />
        )}
      </DragOverlay>
    </DndContext>
  );
}

interface BoardColumnProps {
  status: TaskStatus;
  filters: Omit<TaskQueryFilters, 'status'>;
  enabled: boolean;
  today: string;
  onOpen: (task: TaskDto) => void;
  onAdd: (status: TaskStatus) => void;
  isDragActive: () => boolean;
}

/**
 * Cards a column draws in its first render; the rest of its page follows at once in a background render. A cold load
 * draws what a screen shows sooner (the first render of 80 cards was 170 ms of a fresh browser's main thread).
 */
const FIRST_DRAW = 8;

/** The cards to draw: the first FIRST_DRAW at mount, all of them from the render after it. */
function useProgressiveCards(tasks: TaskDto[]): TaskDto[] {
  const [all, setAll] = useState(false);
  useEffect(() => startTransition(() => setAll(true)), []);
  return all || tasks.length <= FIRST_DRAW ? tasks : tasks.slice(0, FIRST_DRAW);
}

/**
 * A column: its header and its cards. It renders when its data changes, never during a drag: what a drag
 * changes (the drop highlight) lives in ColumnDropZone, which gets the cards as an element it passes on.
 */
const BoardColumn = memo(function BoardColumn({
  status,
  filters,
  enabled,
  today,
  onOpen,
  onAdd,
  isDragActive,
}: BoardColumnProps) {
  const query = useTaskColumn(filters, status, enabled);
  const tasks = useMemo(() => (enabled ? flattenPages(query.data) : []), [enabled, query.data]);
  const drawn = useProgressiveCards(tasks);
  const count = enabled ? (query.data?.pages[0]?.counts[status] ?? 0) : 0;
  const name = label(status);
  const headingId = `column-${status}`;
  const isLoading = enabled && query.isPending;
  const { fetchNextPage } = query;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const loadNear = useCallback(() => void fetchNextPage({ cancelRefetch: false }), [fetchNextPage]);
  const moreRef = useLoadWhenNear(loadNear, query.hasNextPage && !query.isFetching && !query.isFetchNextPageError);

  return (
    <section
      aria-labelledby={headingId}
      className="flex w-80 shrink-0 flex-col rounded-xl bg-slate-100 lg:w-auto lg:min-w-56 lg:max-w-md lg:flex-1 dark:bg-slate-900/60"
      data-testid={`column-${status}`}
    >
      <header className="flex items-center justify-between gap-2 px-3 pb-2 pt-3">
        <div className="flex min-w-0 items-center gap-2">
          <h2 id={headingId} className="truncate text-sm font-semibold text-slate-800 dark:text-slate-100">
            {name}
          </h2>
          <span
            className="rounded-full bg-white px-2 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200"
            data-testid="column-count"
          >
            {count}
            <span className="sr-only"> tasks</span>
          </span>
        </div>
        <Button
          variant="ghost"
          size="icon"
          className="h-8 w-8 shrink-0"
          title={`Add task to ${name}`}
          aria-label={`Add task to ${name}`}
          onClick={() => onAdd(status)}
        >
          <Plus className="h-4 w-4" aria-hidden />
        </Button>
      </header>
      <ColumnDropZone status={status} empty={!isLoading && tasks.length === 0} onAdd={onAdd}>
        {isLoading ? (
          <ColumnSkeleton />
        ) : (
          tasks.length > 0 && (
            <>
              {drawn.map((task) => (
                <DraggableTaskCard
                  key={task.id}
                  task={task}
                  isOverdue={matchesDueFilter(task, 'overdue', today)}
                  onOpen={onOpen}
                  isDragActive={isDragActive}
                />
              ))}
              {query.hasNextPage && (
                <Button
                  ref={moreRef}
                  variant="secondary"
                  size="sm"
                  className="justify-center"
                  isLoading={query.isFetchingNextPage}
                  onClick={loadMore}
                >
                  Show more ({count - tasks.length} more)
                </Button>
              )}
            </>
          )
        )}
        {query.isError && enabled && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {MSG.loadFailed}
          </p>
        )}
      </ColumnDropZone>
    </section>
  );
});

/**
 * The area the page scrolls in (the app shell's main element, marked data-scroll-root), or null for the viewport.
 * Found by markup, not by asking each ancestor for its computed style and scroll height: that forced a style and
 * layout pass of the whole page in the board's first commit (70 ms of a cold load in a CPU profile).
 */
const scrollRoot = (el: Element): Element | null => el.closest('[data-scroll-root]');

/**
 * A callback ref for a column's 'Show more': when it comes within 400 px of the visible part of the page, the next
 * page loads by itself (and again after that page, while it stays near), so the short first page never stops
 * someone scrolling down a column. The button stays, for the keyboard and for anyone who gets there first. `active`
 * is false while the column is fetching (a refetch is not cancelled) and after a failed page (the button retries).
 */
function useLoadWhenNear(load: () => void, active: boolean) {
  const [button, setButton] = useState<HTMLButtonElement | null>(null);
  useEffect(() => {
    if (!active || !button || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && load(), {
      root: scrollRoot(button),
      rootMargin: '400px 0px',
    });
    observer.observe(button);
    return () => observer.disconnect();
  }, [active, button, load]);
  return setButton;
}

interface ColumnDropZoneProps {
  status: TaskStatus;
  /** No cards: shows the empty state ('Drop task here' while a card is over it). */
  empty: boolean;
  onAdd: (status: TaskStatus) => void;
  children: ReactNode;
}

/**
 * The droppable part of a column. It re-renders whenever a drag starts, ends or changes column (every
 * droppable does), so it is small: the cards come in as `children`, an element that stays the same, and
 * React does not render them again.
 */
function ColumnDropZone({ status, empty, onAdd, children }: ColumnDropZoneProps) {
  const { setNodeRef, isOver } = useDroppable({ id: status });
  const name = label(status);
  return (
    <div
      ref={setNodeRef}
      className={cn(
        'flex min-h-40 flex-1 flex-col gap-2 rounded-b-xl px-3 pb-3 transition-colors',
        isOver && 'bg-brand-100/60 ring-2 ring-inset ring-brand-600 dark:bg-indigo-950/50',
      )}
    >
      {empty && (
        <div className="flex flex-1 flex-col items-center justify-center rounded-lg border-2 border-dashed border-slate-300 px-3 py-8 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300">
          {isOver ? (
            <p className="font-medium text-brand-700 dark:text-brand-100">Drop task here</p>
          ) : (
            <>
              <p>No tasks in {name}</p>
              <Button variant="link" className="mt-1" onClick={() => onAdd(status)}>
                Add a task
              </Button>
            </>
          )}
        </div>
      )}
      {children}
    </div>
  );
}

function ColumnSkeleton() {
  return (
    <div aria-hidden className="space-y-2">
      {[0, 1, 2].map((i) => (
        <div key={i} className="h-24 animate-pulse rounded-lg bg-white/70 dark:bg-slate-800/70" />
      ))}
    </div>
  );
}
