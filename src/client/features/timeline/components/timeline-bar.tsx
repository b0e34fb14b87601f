import { TriangleAlert } from 'lucide-react';
import { type KeyboardEvent, memo, type PointerEvent, useRef, useState } from 'react';
import type { TimelineTask } from '../../../../domain/schemas/timeline';
import { cn } from '../../../lib/cn';
import { barName, dayX, EARLY_START_TEXT, isDiamond, shiftDates, taskSpan, type TimelineWindow } from '../timeline-layout';
import { daysBetween } from '../../../../domain/dates';

export type BarEdge = 'move' | 'start' | 'end';

export interface TimelineBarProps {
  task: TimelineTask;
  window: Pick<TimelineWindow, 'from' | 'dayWidth'>;
  today: string;
  /** The blockers this task starts before the end of (undefined: none). */
  earlyOf: string[] | undefined;
  /** A drag or a key changed the dates by `days` (the whole bar, or one end). */
  onShift: (task: TimelineTask, edge: BarEdge, days: number) => void;
  onOpen: (task: TimelineTask) => void;
  /** Whether the caller may change the task (issue 41): a bar they may not change opens but never moves. */
  canMove?: boolean;
}

/** Keyboard help, read after the bar's name (one hidden text for every bar). */
export const BAR_HELP_ID = 'timeline-bar-help';
export const BAR_HELP =
  'Arrow keys move the task by a day; Shift with an arrow key changes its due date; Enter opens it; Control or Command Z undoes the last change.';

/** A pointer moved less than this is a click, not a drag. */
const DRAG_SLOP_PX = 3;
/** Narrower bars have no resize grips (the whole bar moves). */
const GRIPS_MIN_PX = 18;

const categoryLook = (t: TimelineTask) =>
  t.statusCategory === 'completed'
    ? 'bg-green-700 dark:bg-green-600'
    : t.statusCategory === 'canceled'
      ? 'bg-slate-500 dark:bg-slate-500'
      : t.statusCategory === 'started'
        ? 'bg-sky-700 dark:bg-sky-500'
        : 'bg-brand-600 dark:bg-brand-500';

/**
 * A task on the chart: a bar from its start to its due day, or a diamond on its one day. Dragged with the pointer
 * (the middle moves both dates, a grip at either end changes one; the bar follows the pointer a day at a time and the
 * change is made on release), or moved with the keyboard (arrows: a day; Shift+arrows: the due date). A task that
 * starts before one of its blockers ends wears a warning sign and says so in its name.
 */
export const TimelineBar = memo(function TimelineBar({
  task,
  window,
  today,
  earlyOf,
  onShift,
  onOpen,
  canMove = true,
}: TimelineBarProps) {
  const [drag, setDrag] = useState<{ edge: BarEdge; days: number } | null>(null);
  const origin = useRef<{ x: number; edge: BarEdge; moved: boolean } | null>(null);
  const diamond = isDiamond(task);
  const moved = drag && shiftDates(task, drag.edge, drag.days);
  const shown: TimelineTask = moved ? { ...task, ...moved } : task;
  const span = taskSpan(shown);
  if (!span) return null;
  const isEarly = earlyOf !== undefined && earlyOf.length > 0;
  const left = dayX(window, span.first);
  const width = (daysBetween(span.first, span.last) + 1) * window.dayWidth;

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0 || !canMove) return;
    const edge = ((e.target as HTMLElement).dataset.edge as BarEdge | undefined) ?? 'move';
    origin.current = { x: e.clientX, edge, moved: false };
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const o = origin.current;
    if (!o) return;
    const dx = e.clientX - o.x;
    if (!o.moved && Math.abs(dx) < DRAG_SLOP_PX) return;
    o.moved = true;
    const days = Math.round(dx / window.dayWidth);
    // An end dragged past the other stops there (the start stays on or before the due date).
    if (days !== drag?.days && shiftDates(task, o.edge, days)) setDrag({ edge: o.edge, days });
  };
  const onPointerUp = () => {
    const o = origin.current;
    origin.current = null;
    if (o?.moved && drag && drag.days !== 0) onShift(task, drag.edge, drag.days);
    setDrag(null);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      onOpen(task);
      return;
    }
    if (!canMove || (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight')) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    onShift(task, e.shiftKey ? 'end' : 'move', e.key === 'ArrowLeft' ? -1 : 1);
  };

  const common = {
    role: 'button',
    tabIndex: 0,
    'aria-label': barName(shown, today, isEarly),
    'aria-roledescription': diamond ? 'timeline diamond' : 'timeline bar',
    'aria-describedby': canMove ? BAR_HELP_ID : undefined,
    'data-task-id': task.id,
    title: isEarly ? `Starts before ${earlyOf.map((t) => `"${t}"`).join(', ')} ends` : undefined,
    onPointerDown,
    onPointerMove,
    onPointerUp,
    onPointerCancel: onPointerUp,
    onKeyDown,
    onDoubleClick: () => onOpen(task),
  } as const;

  if (diamond) {
    const size = 14;
    return (
      <div
        {...common}
        className="group absolute top-1/2 z-[1] flex h-6 w-6 -translate-x-1/2 -translate-y-1/2 cursor-grab touch-none items-center justify-center rounded"
        style={{ left: left + window.dayWidth / 2 }}
      >
        <span
          aria-hidden
          className={cn(
            'block rotate-45 rounded-[2px]',
            categoryLook(task),
            isEarly && 'ring-2 ring-red-600 ring-offset-1 dark:ring-red-400 dark:ring-offset-slate-900',
          )}
          style={{ width: size, height: size }}
        />
        {isEarly && <EarlyMark className="-left-5" />}
      </div>
    );
  }
  return (
    <div
      {...common}
      className={cn(
        'absolute top-1/2 z-[1] h-5 -translate-y-1/2 cursor-grab touch-none rounded-md',
        categoryLook(task),
        isEarly &&
          'bg-[repeating-linear-gradient(135deg,transparent_0_4px,rgb(255_255_255/0.35)_4px_7px)] ring-2 ring-red-600 ring-offset-1 dark:ring-red-400 dark:ring-offset-slate-900',
        drag && 'cursor-grabbing opacity-90 shadow-lg',
      )}
      style={{ left, width: Math.max(width, 6) }}
    >
      {width >= GRIPS_MIN_PX && (
        <>
          <span
            aria-hidden
            data-edge="start"
            className="absolute inset-y-0 left-0 w-1.5 cursor-ew-resize rounded-l-md bg-black/20"
          />
          <span
            aria-hidden
            data-edge="end"
            className="absolute inset-y-0 right-0 w-1.5 cursor-ew-resize rounded-r-md bg-black/20"
          />
        </>
      )}
      {isEarly && <EarlyMark className="-left-5" />}
    </div>
  );
});

/** The early-start sign: a warning triangle before the bar (its words are in the bar's name). */
function EarlyMark({ className }: { className?: string }) {
  return (
    <span
      aria-hidden
      title={EARLY_START_TEXT}
      className={cn('absolute top-1/2 -translate-y-1/2 text-red-700 dark:text-red-400', className)}
    >
      <TriangleAlert className="h-4 w-4" />
    </span>
  );
}
