import { DndContext, type DragEndEvent, DragOverlay, type KeyboardCoordinateGetter, useDroppable } from '@dnd-kit/core';
import { Plus } from 'lucide-react';
import { type ReactNode, useCallback, useMemo, useRef, useState } from 'react';
import {
  arrowStep,
  type CalendarRange,
  cellDayLabel,
  fitDay,
  inMonth,
  longDayLabel,
  parseCalendarDate,
  tasksByDay,
  weekdayNames,
  type Weekday,
} from '../../../../domain/calendar';
import { addDays } from '../../../../domain/dates';
import type { OccurrenceDto } from '../../../../domain/schemas/repeat';
import type { TaskDto } from '../../../../domain/schemas/task';
import { cn } from '../../../lib/cn';
import { type DropTargets, taskDragAnnouncements, taskOf, useTaskDrag } from '../../../components/task-drag';
import { useMoveTaskDate } from '../api/move-task-date';
import { DayTasksDialog } from './day-tasks-dialog';
import { OccurrenceChip } from './occurrence-chip';
import { occurrencesByDay } from './occurrence-days';
import { layoutSpans, type SpanSegment, spansDays } from './span-layout';
import { type ChipSize, DraggableTaskChip, TaskChipView } from './task-chip';

/** Lines of tasks a day cell has room for (the '+N more' button takes the last one when they do not all fit). */
const CAPACITY = { month: 3, week: 12 } as const;
/** Of those, the lines spanning tasks' bars may take in a row (the rest are told by the days' '+N more'). */
const SPAN_LANES = { month: 2, week: 6 } as const;

const dayOf = (id: unknown) => (typeof id === 'string' ? parseCalendarDate(id) : null);

/** Arrows move the dragged task a day left or right, a week up or down, within the shown days. */
const dayKeyboardCoordinates: KeyboardCoordinateGetter = (event, { context }) => {
  const step = arrowStep(event.code);
  if (step === null) return undefined;
  event.preventDefault();
  const { collisionRect, droppableRects, over, active } = context;
  const from = dayOf(over?.id) ?? taskOf(active?.data.current)?.dueDate;
  if (!collisionRect || !from) return undefined;
  const target = droppableRects.get(addDays(from, step));
  if (!target) return undefined;
  return {
    x: target.left + (target.width - collisionRect.width) / 2,
    y: target.top + Math.min(32, (target.height - collisionRect.height) / 2),
  };
};

const instructions =
  'To pick up a task, press Space. While dragging, use the arrow keys to move it: left and right by a day, up and down by a week. Press Space or Enter to drop it on that day, or Escape to cancel. Press Enter to open the task.';

const dayTargets: DropTargets = {
  nameOf: (id) => {
    const day = dayOf(id);
    return day ? longDayLabel(day) : null;
  },
  holds: (task, id) => dayOf(id) === task.dueDate,
  one: 'a day',
  outside: 'the calendar',
  at: 'on',
};
const announcements = taskDragAnnouncements(dayTargets);

interface CalendarGridProps {
  range: CalendarRange;
  /** The date the view is about (the month view mutes the other months' days). */
  date: string;
  today: string;
  weekStartsOn: Weekday;
  tasks: TaskDto[];
  /** Repeating tasks' future dates (faded, after the day's tasks, not draggable). */
  occurrences: OccurrenceDto[];
  isLoading: boolean;
  onOpenTask: (task: TaskDto) => void;
  /** A day's 'Add task on …'. None: the caller adds no tasks here (issue 41). */
  onAddTask?: (date: string) => void;
}

/**
 * The month or week grid: a cell per day with its tasks, each draggable to another day (pointer or keyboard), and the
 * repeating tasks' future dates.
 */
export function CalendarGrid({
  range,
  date,
  today,
  weekStartsOn,
  tasks,
  occurrences,
  isLoading,
  onOpenTask,
  onAddTask,
}: CalendarGridProps) {
  const move = useMoveTaskDate();
  const [moreDay, setMoreDay] = useState<string | null>(null);
  // After a keyboard drop, the chip that lands in its new day (or comes back to its old one) takes focus.
  const focusTarget = useRef<{ id: string; until: number } | null>(null);
  const takesFocus = useCallback((id: string) => focusTarget.current?.id === id && Date.now() < focusTarget.current.until, []);

  const days = useMemo(() => range.weeks.flat(), [range]);
  // A task with a start before its due day is a bar across its days; the others are chips on their due day.
  const byDay = useMemo(
    () =>
      tasksByDay(
        tasks.filter((t) => !spansDays(t)),
        days,
      ),
    [tasks, days],
  );
  const spans = useMemo(() => layoutSpans(tasks, range.weeks, SPAN_LANES[range.view]), [tasks, range]);
  const futureByDay = useMemo(() => occurrencesByDay(occurrences, days), [occurrences, days]);
  const size: ChipSize = range.view === 'month' ? 'compact' : 'full';

  const onDrop = ({ active, over, activatorEvent }: DragEndEvent) => {
    const task = taskOf(active.data.current);
    const day = dayOf(over?.id);
    // Dropped outside every day, or where it already was: nothing to do.
    if (!task || !day || day === task.dueDate) return;
    if (activatorEvent instanceof KeyboardEvent) focusTarget.current = { id: task.id, until: Date.now() + 10_000 };
    const forget = () => {
      focusTarget.current = null;
    };
    // Once the move has settled and drawn (or been undone), a chip appearing later does not grab focus.
    move.mutate({ task, dueDate: day }, { onSettled: () => setTimeout(forget, 1_000) });
  };
  const { contextProps, activeTask, isDragActive, openTask } = useTaskDrag({
    keyboardCoordinates: dayKeyboardCoordinates,
    announcements,
    instructions,
    onOpenTask,
    onDrop,
  });

  const names = weekdayNames(weekStartsOn, true);
  // A day's full list: its chips and every bar across it.
  const moreTasks = moreDay
    ? [...tasks.filter((t) => spansDays(t) && t.startDate! <= moreDay && t.dueDate! >= moreDay), ...(byDay.get(moreDay) ?? [])]
    : [];
  const moreOccurrences = moreDay ? (futureByDay.get(moreDay) ?? []) : [];

  return (
    <DndContext {...contextProps}>
      <div
        className="overflow-hidden rounded-xl border border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900"
        aria-busy={isLoading || undefined}
      >
        {/* Each day names itself in full; the short names are for the eye. */}
        <div
          aria-hidden
          className="grid grid-cols-7 border-b border-slate-200 bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600 dark:border-slate-700 dark:bg-slate-800/60 dark:text-slate-300"
        >
          {names.map((n, i) => (
            <div key={n} className={cn('px-2 py-2', i < 6 && 'border-r border-slate-200 dark:border-slate-700')}>
              {n}
            </div>
          ))}
        </div>
        <ol className="grid grid-cols-7" data-testid="calendar-grid" data-view={range.view}>
          {days.map((day, i) => {
            const dayTasks = byDay.get(day) ?? [];
            const future = futureByDay.get(day) ?? [];
            const row = spans[Math.floor(i / 7)]!;
            const hidden = row.hidden[i % 7]!.length;
            // The bars' lines come off the cell's room; bars left out count in '+N more' with the chips, and the
            // occurrences take what room the tasks leave.
            const fit = fitDay(dayTasks.length + future.length + hidden, CAPACITY[range.view] - row.lanes);
            const shown = Math.min(fit.shown, dayTasks.length);
            const shownFuture = Math.min(fit.shown - shown, future.length);
            return (
              <DayCell
                key={day}
                date={day}
                isToday={day === today}
                isMuted={range.view === 'month' && !inMonth(day, date)}
                isLastColumn={i % 7 === 6}
                isLastRow={i >= days.length - 7}
                view={range.view}
                count={dayTasks.length + future.length}
                more={dayTasks.length + future.length + hidden - shown - shownFuture}
                lanes={row.lanes}
                bars={row.segments
                  .filter((s) => s.column === i % 7)
                  .map((s) => <SpanBar key={s.task.id} segment={s} onOpen={onOpenTask} />)}
                onAdd={onAddTask}
                onMore={setMoreDay}
                isLoading={isLoading}
              >
                {dayTasks.slice(0, shown).map((task) => (
                  <li key={task.id}>
                    <DraggableTaskChip
                      task={task}
                      size={size}
                      onOpen={openTask}
                      isDragActive={isDragActive}
                      takesFocus={takesFocus}
                    />
                  </li>
                ))}
                {future.slice(0, shownFuture).map((o) => (
                  <li key={`${o.seriesId}-${o.date}`}>
                    <OccurrenceChip occurrence={o} size={size} />
                  </li>
                ))}
              </DayCell>
            );
          })}
        </ol>
      </div>
      <DragOverlay dropAnimation={null}>
        {activeTask && <TaskChipView task={activeTask} size={size} className="cursor-grabbing shadow-lg ring-2 ring-brand-600" />}
      </DragOverlay>
      <DayTasksDialog
        date={moreDay}
        tasks={moreTasks}
        occurrences={moreOccurrences}
        onClose={() => setMoreDay(null)}
        onAdd={
          onAddTask &&
          ((d) => {
            setMoreDay(null);
            onAddTask(d);
          })
        }
      />
    </DndContext>
  );
}

interface DayCellProps {
  date: string;
  isToday: boolean;
  isMuted: boolean;
  isLastColumn: boolean;
  isLastRow: boolean;
  view: CalendarRange['view'];
  count: number;
  /** The day's tasks not shown in the cell (chips past its room, bars past the row's lanes). */
  more: number;
  /** Lines the row's bars take: kept free at the top of every cell of the row. */
  lanes: number;
  /** The bars that start in this cell (drawn across the next cells of the row). */
  bars: ReactNode;
  isLoading: boolean;
  onAdd?: (date: string) => void;
  onMore: (date: string) => void;
  /** The shown tasks' list items. */
  children: ReactNode;
}

/** One day: its number (named in full for screen readers), 'Add task on …', its tasks and '+N more'; a drop target. */
function DayCell({
  date,
  isToday,
  isMuted,
  isLastColumn,
  isLastRow,
  view,
  count,
  more,
  lanes,
  bars,
  isLoading,
  onAdd,
  onMore,
  children,
}: DayCellProps) {
  const { setNodeRef, isOver } = useDroppable({ id: date });
  const label = longDayLabel(date);
  const headingId = `day-${date}`;
  return (
    <li
      ref={setNodeRef}
      data-date={date}
      data-testid="calendar-day"
      className={cn(
        'group relative flex min-w-0 flex-col gap-1 p-1.5 transition-colors',
        view === 'month' ? 'min-h-32' : 'min-h-[28rem]',
        !isLastColumn && 'border-r border-slate-200 dark:border-slate-700',
        !isLastRow && 'border-b border-slate-200 dark:border-slate-700',
        isMuted && 'bg-slate-50 dark:bg-slate-950/60',
        isOver && 'bg-brand-100/60 ring-2 ring-inset ring-brand-600 dark:bg-indigo-950/60',
      )}
    >
      <div className="flex items-center justify-between gap-1">
        <h3 id={headingId} className="text-sm">
          <span
            aria-hidden
            className={cn(
              'inline-flex h-7 min-w-7 items-center justify-center rounded-full px-1.5 font-medium',
              isToday
                ? 'bg-brand-600 text-white'
                : isMuted
                  ? 'text-slate-600 dark:text-slate-400'
                  : 'text-slate-800 dark:text-slate-100',
            )}
          >
            {cellDayLabel(date)}
          </span>
          <span className="sr-only">
            {label}
            {isToday ? ' (today)' : ''}
          </span>
        </h3>
        {onAdd && (
          <button
            type="button"
            onClick={() => onAdd(date)}
            aria-label={`Add task on ${label}`}
            title={`Add task on ${label}`}
            className="inline-flex h-7 w-7 items-center justify-center rounded-md text-slate-600 outline-none hover:bg-slate-100 hover:text-slate-900 focus-visible:ring-2 focus-visible:ring-brand-600 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white"
          >
            <Plus className="h-4 w-4" aria-hidden />
          </button>
        )}
      </div>
      {bars}
      {lanes > 0 && <div aria-hidden style={{ height: lanes * SPAN_LINE_PX - 4 }} />}
      {isLoading ? (
        <div aria-hidden className="h-6 animate-pulse rounded-md bg-slate-100 dark:bg-slate-800" />
      ) : (
        count > 0 && <ul className="flex min-w-0 flex-col gap-1">{children}</ul>
      )}
      {more > 0 && (
        <button
          type="button"
          onClick={() => onMore(date)}
          aria-label={`+${more} more tasks on ${label}`}
          className="self-start rounded-md px-1.5 py-0.5 text-xs font-semibold text-brand-700 outline-none hover:bg-brand-100 hover:underline focus-visible:ring-2 focus-visible:ring-brand-600 dark:text-brand-100 dark:hover:bg-indigo-950"
        >
          +{more} more
        </button>
      )}
    </li>
  );
}

/** A bar's line: its height and the gap under it (px); the first line starts under the day's number row. */
const SPAN_LINE_PX = 30;
const SPAN_TOP_PX = 38;

/**
 * One row's piece of a spanning task: from its first day in the row across `length` days, open at an end where the
 * task goes on into the next or previous row. The task's first piece is a button (a click or Enter opens the task, its
 * name says the days); the pieces that repeat it in later rows are for the pointer and the eye only.
 */
function SpanBar({ segment, onOpen }: { segment: SpanSegment<TaskDto>; onOpen: (task: TaskDto) => void }) {
  const { task, length, lane, continuesBefore, continuesAfter, isFirst } = segment;
  const days = `${longDayLabel(task.startDate!)} to ${longDayLabel(task.dueDate!)}`;
  const open = () => onOpen(task);
  return (
    <div
      role={isFirst ? 'button' : undefined}
      tabIndex={isFirst ? 0 : undefined}
      aria-hidden={isFirst ? undefined : true}
      title={`${task.title}: ${days}`}
      data-testid="calendar-span"
      data-task-id={task.id}
      onClick={open}
      onKeyDown={
        isFirst
          ? (e) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault();
                open();
              }
            }
          : undefined
      }
      className="absolute z-10 cursor-pointer rounded-md outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-1 dark:focus-visible:ring-offset-slate-900"
      style={{
        top: SPAN_TOP_PX + lane * SPAN_LINE_PX,
        left: continuesBefore ? 0 : 4,
        // Across `length` cells (each cell's right border is 1px), less the inset at a closed end.
        width: `calc(${length * 100}% + ${length - 1}px - ${(continuesBefore ? 0 : 4) + (continuesAfter ? 0 : 4)}px)`,
      }}
    >
      <TaskChipView
        task={task}
        size="compact"
        days={isFirst ? days : undefined}
        className={cn(
          'hover:border-brand-600',
          continuesBefore && 'rounded-l-none border-l-0',
          continuesAfter && 'rounded-r-none border-r-0',
        )}
      />
    </div>
  );
}
