import {
  type CollisionDetection,
  closestCenter,
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type KeyboardCoordinateGetter,
  pointerWithin,
  useDroppable,
} from '@dnd-kit/core';
import { AlertTriangle, ChevronDown, ChevronRight, Plus } from 'lucide-react';
import { lazy, memo, type ReactNode, startTransition, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { openSubtaskCount } from '../../../../domain/hierarchy';
import { MSG } from '../../../../domain/messages';
import type { TaskDto } from '../../../../domain/schemas/task';
import { localDate, matchesDueFilter } from '../../../../domain/task-filters';
import { WORKFLOW_TEXT, wipHeader } from '../../../../domain/workflow';
import { type DropTargets, taskDragAnnouncements, taskOf, useTaskDrag } from '../../../components/task-drag';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { logError } from '../../../lib/errors';
import { flattenPages, useBoardShape, useTaskColumn } from '../api/get-tasks';
import { useMoveTask } from '../api/move-task';
import type { TaskQueryFilters } from '../api/task-keys';
import {
  type BoardWorkflows,
  columnsOf,
  DEFAULT_SHAPE,
  type DrawnColumn,
  dropPatch,
  type GroupBy,
  groupIntoLanes,
  type Lane,
  type LanePatch,
  movedTask,
  nextTarget,
  taskStatusOf,
} from '../board/board-model';
import { CARD_MENU_HINT, CardMenuProvider } from './card-menu-host';
import { DraggableTaskCard, TaskCardView } from './task-card';
import { useWorkRights } from '../../../lib/use-work-rights';

/** 'Complete its open sub-tasks too?': its code (the dialog's) loads only when a drop asks it. */
const CompleteSubtasksDialog = lazy(() =>
  import('./task-detail/complete-subtasks-dialog').then((m) => ({ default: m.CompleteSubtasksDialog })),
);

const ARROWS = { ArrowRight: 'right', ArrowLeft: 'left', ArrowUp: 'up', ArrowDown: 'down' } as const;

/**
 * Where an arrow key moves the dragged card: left and right to the neighbouring column; with swimlanes also up and
 * down to the neighbouring lane, the card then centred on the cell (the keyboard's drop is the nearest centre).
 */
const keyboardCoordinates =
  (lanes: boolean): KeyboardCoordinateGetter =>
  (event, { context }) => {
    const { collisionRect, droppableRects } = context;
    if (!collisionRect) return undefined;
    if (event.code.startsWith('Arrow')) event.preventDefault();
    const dir = ARROWS[event.code as keyof typeof ARROWS];
    if (!dir || (!lanes && (dir === 'up' || dir === 'down'))) return undefined;
    const at = { x: collisionRect.left + collisionRect.width / 2, y: collisionRect.top + collisionRect.height / 2 };
    const target = nextTarget([...droppableRects.values()], at, dir);
    if (!target) return undefined;
    const x = target.left + (target.width - collisionRect.width) / 2;
    return { x, y: lanes ? target.top + (target.height - collisionRect.height) / 2 : target.top + 8 };
  };
const COLUMN_KEYS = keyboardCoordinates(false);
const LANE_KEYS = keyboardCoordinates(true);

/** With lanes, the pointer decides a mouse drop; the keyboard's drop is the cell whose centre is nearest the card's. */
const laneCollision: CollisionDetection = (args) => (args.pointerCoordinates ? pointerWithin(args) : closestCenter(args));

const instructions = `To pick up a task, press Space. While dragging, use the left and right arrow keys to move it between columns. Press Space or Enter to drop it, or Escape to cancel. Press Enter to open the task. ${CARD_MENU_HINT}`;
const laneInstructions = `To pick up a task, press Space. While dragging, use the left and right arrow keys to move it between columns, and the up and down arrow keys to move it between lanes. Press Space or Enter to drop it, or Escape to cancel. Press Enter to open the task. ${CARD_MENU_HINT}`;

/** What a drop target is: a column, and with swimlanes a lane of it. */
interface DropSpot {
  column: DrawnColumn;
  lane?: { patch: LanePatch; name: string };
  /** What the announcements call it ('QA', or 'QA, Alice Smith'). */
  name: string;
}

const spotOf = (data: unknown) => (data as { spot?: DropSpot } | undefined)?.spot;

interface TaskBoardProps {
  /** The board's filters, its status or category filter included (then only the matching columns have tasks). */
  filters: TaskQueryFilters;
  /** Swimlanes: the loaded cards in rows by this field. */
  groupBy?: GroupBy;
  onOpenTask: (task: TaskDto) => void;
  /** 'Add task to …': the column's status (none for a category column). None: the caller adds no tasks here. */
  onAddTask?: (status?: string) => void;
}

/** What a column has loaded, for the board (swimlanes draw every column's cards lane by lane). */
interface ColumnFeedState {
  tasks: TaskDto[];
  count: number;
  isLoading: boolean;
  isError: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  loadMore: () => void;
  /** The next page without cancelling a refetch ('Show more' came near the screen). */
  loadNear: () => void;
  /** Whether coming near loads: not while fetching, nor after a failed page (the button retries). */
  nearActive: boolean;
}

const enabledFor = (filters: TaskQueryFilters, column: DrawnColumn) =>
  !(filters.status && column.kind === 'status' && filters.status !== column.id) &&
  !(filters.category && filters.category !== column.category);

export function TaskBoard({ filters, groupBy, onOpenTask, onAddTask }: TaskBoardProps) {
  const move = useMoveTask();
  // A drop that completes a task with open sub-tasks waits for the answer to 'Complete its open sub-tasks too?'.
  const [asking, setAsking] = useState<Parameters<typeof move.mutate>[0] | null>(null);
  const today = localDate(new Date());
  const shapeQuery = useBoardShape(filters);
  const shape = shapeQuery.data ?? DEFAULT_SHAPE;
  const ready = shapeQuery.data !== undefined;
  const columns = useMemo(() => columnsOf(shape), [shape]);
  const workflows = shape.workflows;
  const [feeds, setFeeds] = useState<Record<string, ColumnFeedState>>({});
  const report = useCallback((id: string, state: ColumnFeedState) => setFeeds((f) => ({ ...f, [id]: state })), []);

  const lanes = useMemo(
    () =>
      groupBy
        ? groupIntoLanes(
            columns.map((c) => ({ id: c.id, tasks: feeds[c.id]?.tasks ?? [] })),
            groupBy,
            groupBy === 'project'
              ? workflows.map((w) => ({ id: w.projectId, name: projectNameOf(feeds, w.projectId) })).filter((p) => p.name)
              : [],
          )
        : [],
    [groupBy, columns, feeds, workflows],
  );

  const spots = useMemo(() => {
    const byId = new Map<string, DropSpot>();
    for (const column of columns) {
      if (!groupBy) byId.set(column.id, { column, name: column.name });
      for (const lane of lanes) {
        byId.set(cellId(lane, column), { column, lane, name: `${column.name}, ${lane.name}` });
      }
    }
    return byId;
  }, [columns, lanes, groupBy]);

  const targets: DropTargets = {
    nameOf: (id) => (id === undefined ? null : (spots.get(String(id))?.name ?? null)),
    holds: (task, id) => {
      const spot = spots.get(String(id));
      return !spot || dropPatch(task, spot.column, workflows, spot.lane?.patch) === null;
    },
    one: groupBy ? 'a lane of a column' : 'a column',
    outside: 'the columns',
    at: 'in',
  };

  const onDrop = ({ active, over }: DragEndEvent) => {
    const task = taskOf(active.data.current);
    if (!task) {
      logError('Dragged task not found', active.id);
      return;
    }
    // Dropped outside every column, or where it already was: nothing to do.
    const spot = spotOf(over?.data.current);
    if (!spot) return;
    const patch = dropPatch(task, spot.column, workflows, spot.lane?.patch);
    if (!patch) return;
    const vars = { task, patch, moved: movedTask(task, patch, workflows, spot.column, spot.lane?.name ?? '') };
    const completes = vars.moved.statusCategory === 'completed' && task.statusCategory !== 'completed';
    if (completes && openSubtaskCount(task.subtaskCounts) > 0) setAsking(vars);
    else move.mutate(vars);
  };
  const { contextProps, activeTask, isDragActive, openTask } = useTaskDrag({
    keyboardCoordinates: groupBy ? LANE_KEYS : COLUMN_KEYS,
    announcements: taskDragAnnouncements(targets),
    instructions: groupBy ? laneInstructions : instructions,
    collisionDetection: groupBy ? laneCollision : undefined,
    onOpenTask,
    onDrop,
  });

  const columnProps = (column: DrawnColumn) => ({
    column,
    filters,
    enabled: ready && enabledFor(filters, column),
    waiting: !ready,
    today,
    workflows,
    onOpen: openTask,
    onAdd: onAddTask,
    isDragActive,
  });

  return (
    <CardMenuProvider>
      <DndContext {...contextProps}>
        {groupBy ? (
          <LaneBoard
            columns={columns}
            lanes={lanes}
            feeds={feeds}
            groupBy={groupBy}
            today={today}
            workflows={workflows}
            onOpen={openTask}
            onAdd={onAddTask}
            isDragActive={isDragActive}
          >
            {columns.map((column) => (
              <ColumnFeed key={`${column.kind}:${column.id}`} {...columnProps(column)} onState={report} />
            ))}
          </LaneBoard>
        ) : (
          <div className="-mx-4 flex gap-4 overflow-x-auto px-4 pb-4 sm:mx-0 sm:px-0" data-testid="task-board">
            {columns.map((column) => (
              <BoardColumn key={`${column.kind}:${column.id}`} {...columnProps(column)} />
            ))}
          </div>
        )}
        <DragOverlay dropAnimation={null}>
          {activeTask && (
            <TaskCardView
              task={activeTask}
              isOverdue={matchesDueFilter(activeTask, 'overdue', today)}
              status={taskStatusOf(workflows, activeTask)}
              className="w-full cursor-grabbing shadow-xl ring-2 ring-brand-600"
            />
          )}
        </DragOverlay>
        {asking && (
          <Suspense fallback={null}>
            <CompleteSubtasksDialog
              open
              title={asking.task.title}
              openCount={openSubtaskCount(asking.task.subtaskCounts)}
              onAnswer={(completeSubtasks) => {
                move.mutate({ ...asking, completeSubtasks });
                setAsking(null);
              }}
              onCancel={() => setAsking(null)}
            />
          </Suspense>
        )}
      </DndContext>
    </CardMenuProvider>
  );
}

const projectNameOf = (feeds: Record<string, ColumnFeedState>, projectId: string) => {
  for (const feed of Object.values(feeds)) {
    const found = feed.tasks.find((t) => t.projectId === projectId);
    if (found) return found.projectName;
  }
  return '';
};

const cellId = (lane: Lane, column: DrawnColumn) => `lane:${lane.key}:${column.id}`;

interface BoardColumnProps {
  column: DrawnColumn;
  filters: TaskQueryFilters;
  enabled: boolean;
  /** The board's columns are not known yet: a skeleton. */
  waiting: boolean;
  today: string;
  workflows: BoardWorkflows;
  onOpen: (task: TaskDto) => void;
  onAdd?: (status?: string) => void;
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

/** A column's loaded cards and paging. */
function useColumnFeed(filters: TaskQueryFilters, column: DrawnColumn, enabled: boolean, waiting: boolean): ColumnFeedState {
  const query = useTaskColumn(filters, column, enabled);
  const tasks = useMemo(() => (enabled ? flattenPages(query.data) : []), [enabled, query.data]);
  const { fetchNextPage } = query;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const loadNear = useCallback(() => void fetchNextPage({ cancelRefetch: false }), [fetchNextPage]);
  return {
    loadNear,
    nearActive: query.hasNextPage && !query.isFetching && !query.isFetchNextPageError,
    tasks,
    // The column's exact count is its pages' total (the board's count for it, kept by moves).
    count: enabled ? (query.data?.pages[0]?.total ?? 0) : 0,
    isLoading: waiting || (enabled && query.isPending),
    isError: enabled && query.isError,
    hasNextPage: query.hasNextPage,
    isFetchingNextPage: query.isFetchingNextPage,
    loadMore,
  };
}

/** A column's header: its name (and colour), the count ('count / limit' with a WIP limit, marked when over it). */
function ColumnHead({
  column,
  count,
  headingId,
  overId,
  onAdd,
}: {
  column: DrawnColumn;
  count: number;
  headingId: string;
  overId: string;
  onAdd?: (status?: string) => void;
}) {
  const limit = column.kind === 'status' ? column.wipLimit : null;
  const wip = wipHeader(count, limit);
  return (
    <header className="flex items-center justify-between gap-2 px-3 pb-2 pt-3">
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        <span className="h-2.5 w-2.5 shrink-0 rounded-full" style={{ backgroundColor: column.color }} aria-hidden />
        <h2 id={headingId} className="truncate text-sm font-semibold text-slate-800 dark:text-slate-100">
          {column.name}
        </h2>
        <span
          className={cn(
            'rounded-full px-2 py-0.5 text-xs font-medium',
            wip.isOver
              ? 'bg-red-100 text-red-800 ring-1 ring-red-600 dark:bg-red-950 dark:text-red-200 dark:ring-red-400'
              : 'bg-white text-slate-700 dark:bg-slate-800 dark:text-slate-200',
          )}
          data-testid="column-count"
        >
          {wip.text}
          <span className="sr-only">{limit === null ? ' tasks' : ` tasks, ${WORKFLOW_TEXT.wipLimit} ${limit}`}</span>
        </span>
        {wip.overText && (
          <span
            id={overId}
            className="inline-flex items-center gap-1 text-xs font-semibold text-red-700 dark:text-red-300"
            data-testid="over-wip"
          >
            <AlertTriangle className="h-3.5 w-3.5" aria-hidden />
            {wip.overText}
          </span>
        )}
      </div>
      {onAdd && (
        <Button
          variant="ghost"
          size="icon"
          className="h-8 w-8 shrink-0"
          title={`Add task to ${column.name}`}
          aria-label={`Add task to ${column.name}`}
          onClick={() => onAdd(column.kind === 'status' ? column.key : undefined)}
        >
          <Plus className="h-4 w-4" aria-hidden />
        </Button>
      )}
    </header>
  );
}

/** The section's accessible name: the column's name, and 'Over WIP limit' while it is. */
const labelledBy = (column: DrawnColumn, count: number, headingId: string, overId: string) =>
  column.kind === 'status' && wipHeader(count, column.wipLimit).isOver ? `${headingId} ${overId}` : headingId;

/**
 * A column: its header and its cards. It renders when its data changes, never during a drag: what a drag
 * changes (the drop highlight) lives in ColumnDropZone, which gets the cards as an element it passes on.
 */
const BoardColumn = memo(function BoardColumn({
  column,
  filters,
  enabled,
  waiting,
  today,
  workflows,
  onOpen,
  onAdd,
  isDragActive,
}: BoardColumnProps) {
  const feed = useColumnFeed(filters, column, enabled, waiting);
  const { tasks, count } = feed;
  const drawn = useProgressiveCards(tasks);
  const headingId = `column-${column.id}`;
  const overId = `column-${column.id}-over`;
  const isLoading = feed.isLoading;
  const spot = useMemo<DropSpot>(() => ({ column, name: column.name }), [column]);

  return (
    <section
      aria-labelledby={labelledBy(column, count, headingId, overId)}
      className="flex w-80 shrink-0 flex-col rounded-xl bg-slate-100 lg:w-auto lg:min-w-56 lg:max-w-md lg:flex-1 dark:bg-slate-900/60"
      data-testid={`column-${column.id}`}
    >
      <ColumnHead column={column} count={count} headingId={headingId} overId={overId} onAdd={onAdd} />
      <ColumnDropZone id={column.id} spot={spot} empty={!isLoading && tasks.length === 0} onAdd={onAdd}>
        {isLoading ? (
          <ColumnSkeleton />
        ) : (
          tasks.length > 0 && (
            <>
              <Cards tasks={drawn} today={today} workflows={workflows} onOpen={onOpen} isDragActive={isDragActive} />
              {feed.hasNextPage && <ShowMore feed={feed} />}
            </>
          )
        )}
        {feed.isError && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {MSG.loadFailed}
          </p>
        )}
      </ColumnDropZone>
    </section>
  );
});

/** A column's (or a lane cell's) cards, each with its own status from the workflows. */
function Cards({
  tasks,
  today,
  workflows,
  onOpen,
  isDragActive,
}: { tasks: TaskDto[] } & Pick<BoardColumnProps, 'today' | 'workflows' | 'onOpen' | 'isDragActive'>) {
  const rights = useWorkRights();
  return tasks.map((task) => (
    <DraggableTaskCard
      key={task.id}
      task={task}
      canMove={rights.canEditTask(task)}
      isOverdue={matchesDueFilter(task, 'overdue', today)}
      status={taskStatusOf(workflows, task)}
      onOpen={onOpen}
      isDragActive={isDragActive}
    />
  ));
}

/** A column's 'Show more': loads the next page itself when it comes near the visible part of the page. */
function ShowMore({ feed }: { feed: ColumnFeedState }) {
  const moreRef = useLoadWhenNear(feed.loadNear, feed.nearActive);
  return (
    <Button
      ref={moreRef}
      variant="secondary"
      size="sm"
      className="justify-center"
      isLoading={feed.isFetchingNextPage}
      onClick={feed.loadMore}
    >
      Show more ({feed.count - feed.tasks.length} more)
    </Button>
  );
}

/** A column's queries for the swimlanes: draws nothing, tells the board what it loaded. */
function ColumnFeed({
  column,
  filters,
  enabled,
  waiting,
  onState,
}: BoardColumnProps & { onState: (id: string, state: ColumnFeedState) => void }) {
  const feed = useColumnFeed(filters, column, enabled, waiting);
  const { tasks, count, isLoading, isError, hasNextPage, isFetchingNextPage, loadMore, loadNear, nearActive } = feed;
  useEffect(
    () =>
      onState(column.id, {
        tasks,
        count,
        isLoading,
        isError,
        hasNextPage,
        isFetchingNextPage,
        loadMore,
        loadNear,
        nearActive,
      }),
    [onState, column.id, tasks, count, isLoading, isError, hasNextPage, isFetchingNextPage, loadMore, loadNear, nearActive],
  );
  return null;
}

interface LaneBoardProps {
  columns: DrawnColumn[];
  lanes: Lane[];
  feeds: Record<string, ColumnFeedState>;
  groupBy: GroupBy;
  today: string;
  workflows: BoardWorkflows;
  onOpen: (task: TaskDto) => void;
  onAdd?: (status?: string) => void;
  isDragActive: () => boolean;
  /** The columns' feeds (they draw nothing). */
  children: ReactNode;
}

/**
 * The board in swimlanes: the column heads in a row, then one row per lane, each with a header (its name and count,
 * a button that collapses it) and a cell per column; the columns' 'Show more' at the foot.
 */
function LaneBoard({ columns, lanes, feeds, groupBy, today, workflows, onOpen, onAdd, isDragActive, children }: LaneBoardProps) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string) =>
    setCollapsed((c) => {
      const next = new Set(c);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  const grid = { gridTemplateColumns: `repeat(${columns.length}, minmax(15rem, 1fr))` };
  const minWidth = `calc(${columns.length} * 15rem + ${columns.length - 1} * 1rem)`;
  const isLoading = columns.some((c) => feeds[c.id]?.isLoading ?? true);
  const anyMore = columns.some((c) => feeds[c.id]?.hasNextPage);

  return (
    <div className="-mx-4 overflow-x-auto px-4 pb-4 sm:mx-0 sm:px-0" data-testid="task-board">
      {children}
      <div className="space-y-3" style={{ minWidth }}>
        <div className="grid gap-4" style={grid}>
          {columns.map((column) => {
            const count = feeds[column.id]?.count ?? 0;
            const headingId = `column-${column.id}`;
            const overId = `column-${column.id}-over`;
            return (
              <section
                key={column.id}
                aria-labelledby={labelledBy(column, count, headingId, overId)}
                className="rounded-xl bg-slate-100 dark:bg-slate-900/60"
                data-testid={`column-${column.id}`}
              >
                <ColumnHead column={column} count={count} headingId={headingId} overId={overId} onAdd={onAdd} />
              </section>
            );
          })}
        </div>
        {isLoading && <ColumnSkeleton />}
        {!isLoading && lanes.length === 0 && (
          <p className="rounded-xl border-2 border-dashed border-slate-300 px-3 py-8 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300">
            No tasks found
          </p>
        )}
        {lanes.map((lane) => {
          const open = !collapsed.has(lane.key);
          const regionId = `lane-${groupBy}-${lane.key}`;
          return (
            <section
              key={lane.key}
              aria-labelledby={`${regionId}-title`}
              className="rounded-xl border border-slate-200 dark:border-slate-700"
              data-testid="lane"
            >
              <h3 id={`${regionId}-title`} className="text-sm font-semibold text-slate-800 dark:text-slate-100">
                <button
                  type="button"
                  aria-expanded={open}
                  aria-controls={regionId}
                  onClick={() => toggle(lane.key)}
                  className="flex w-full items-center gap-2 rounded-t-xl px-3 py-2 text-left hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 dark:hover:bg-slate-800/60"
                >
                  {open ? <ChevronDown className="h-4 w-4" aria-hidden /> : <ChevronRight className="h-4 w-4" aria-hidden />}
                  <span className="truncate">{lane.name}</span>
                  <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200">
                    {lane.count}
                    <span className="sr-only"> tasks</span>
                  </span>
                </button>
              </h3>
              {open && (
                <div id={regionId} className="grid gap-4 px-0 pb-2" style={grid}>
                  {columns.map((column) => {
                    const tasks = lane.cells[column.id] ?? [];
                    return (
                      <LaneCell key={column.id} id={cellId(lane, column)} column={column} lane={lane} empty={tasks.length === 0}>
                        <Cards tasks={tasks} today={today} workflows={workflows} onOpen={onOpen} isDragActive={isDragActive} />
                      </LaneCell>
                    );
                  })}
                </div>
              )}
            </section>
          );
        })}
        {anyMore && (
          <div className="grid gap-4" style={grid}>
            {columns.map((column) => {
              const feed = feeds[column.id];
              return <div key={column.id}>{feed?.hasNextPage && <ShowMore feed={feed} />}</div>;
            })}
          </div>
        )}
      </div>
    </div>
  );
}

/** One lane's part of a column: a drop target that sets the column's status and the lane's field. */
function LaneCell({
  id,
  column,
  lane,
  empty,
  children,
}: {
  id: string;
  column: DrawnColumn;
  lane: Lane;
  empty: boolean;
  children: ReactNode;
}) {
  const spot = useMemo<DropSpot>(
    () => ({ column, lane: { patch: lane.patch, name: lane.name }, name: `${column.name}, ${lane.name}` }),
    [column, lane.patch, lane.name],
  );
  const { setNodeRef, isOver } = useDroppable({ id, data: { spot } });
  return (
    <div
      ref={setNodeRef}
      data-testid={`cell-${column.id}`}
      className={cn(
        'flex min-h-20 flex-col gap-2 rounded-lg bg-slate-100 p-2 transition-colors dark:bg-slate-900/60',
        isOver && 'bg-brand-100/60 ring-2 ring-inset ring-brand-600 dark:bg-indigo-950/50',
      )}
    >
      {empty && (
        <p className="sr-only">
          No tasks in {column.name}, {lane.name}
        </p>
      )}
      {children}
    </div>
  );
}

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
  id: string;
  spot: DropSpot;
  /** No cards: shows the empty state ('Drop task here' while a card is over it). */
  empty: boolean;
  onAdd?: (status?: string) => void;
  children: ReactNode;
}

/**
 * The droppable part of a column. It re-renders whenever a drag starts, ends or changes column (every
 * droppable does), so it is small: the cards come in as `children`, an element that stays the same, and
 * React does not render them again.
 */
function ColumnDropZone({ id, spot, empty, onAdd, children }: ColumnDropZoneProps) {
  const data = useMemo(() => ({ spot }), [spot]);
  const { setNodeRef, isOver } = useDroppable({ id, data });
  const { column } = spot;
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
              <p>No tasks in {column.name}</p>
              {onAdd && (
                <Button variant="link" className="mt-1" onClick={() => onAdd(column.kind === 'status' ? column.key : undefined)}>
                  Add a task
                </Button>
              )}
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
