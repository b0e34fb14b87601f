import { ChevronDown, ChevronRight } from 'lucide-react';
import { forwardRef, memo, useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { Weekday } from '../../../../domain/calendar';
import type { TimelineDependency, TimelineTask } from '../../../../domain/schemas/timeline';
import { cn } from '../../../lib/cn';
import {
  dayAtX,
  dayLabel,
  dayX,
  headerCells,
  type TimelineRow,
  type TimelineWindow,
  taskSpan,
  visibleRange,
} from '../timeline-layout';
import { type BarEdge, TimelineBar } from './timeline-bar';
import { useWorkRights } from '../../../lib/use-work-rights';

export const ROW_HEIGHT = 36;
const HEADER_HEIGHT = 48;
/** Rows drawn above and below the visible ones (a fast scroll shows no gap). */
const OVERSCAN = 10;
/** The scroll position is read in steps of this many pixels: a few pixels' scroll draws nothing new. */
const BLOCK = OVERSCAN * ROW_HEIGHT;

/** What the page asks of the chart: the day under a point (a drop from 'Unscheduled'), or null outside the chart. */
export interface TimelineChartHandle {
  dayAtPoint: (clientX: number, clientY: number) => string | null;
}

export interface TimelineChartProps {
  window: TimelineWindow;
  weekStartsOn: Weekday;
  /** The day the chart first shows at its left (the page's date), scrolled to when the window changes. */
  anchor: string;
  today: string;
  rows: TimelineRow[];
  dependencies: readonly TimelineDependency[];
  early: ReadonlyMap<string, string[]>;
  onToggle: (id: string) => void;
  onShift: (task: TimelineTask, edge: BarEdge, days: number) => void;
  onOpen: (task: TimelineTask) => void;
}

/**
 * The Gantt chart: a header of dates, a row per project and task, bars and diamonds, today's line and the dependency
 * arrows. Only the rows in view (and a few around them) are drawn, with the arrows that touch them: 2,000 tasks cost
 * what 40 do. The task names stay at the left while the chart scrolls sideways.
 */
export const TimelineChart = forwardRef<TimelineChartHandle, TimelineChartProps>(function TimelineChart(
  { window: w, weekStartsOn, anchor, today, rows, dependencies, early, onToggle, onShift, onOpen },
  ref,
) {
  const scroller = useRef<HTMLDivElement>(null);
  const origin = useRef<HTMLDivElement>(null);
  // A bar the caller may not change (issue 41: a viewer's, a guest's unassigned one) opens but never moves.
  const rights = useWorkRights();
  const [view, setView] = useState({ top: 0, height: 600 });

  useImperativeHandle(
    ref,
    () => ({
      dayAtPoint(clientX, clientY) {
        const box = scroller.current?.getBoundingClientRect();
        const o = origin.current;
        if (!box || !o) return null;
        const labelWidth = o.offsetLeft;
        if (clientX < box.left + labelWidth || clientX > box.right || clientY < box.top || clientY > box.bottom) return null;
        const x = clientX - o.getBoundingClientRect().left;
        return x >= 0 && x < w.width ? dayAtX(w, x) : null;
      },
    }),
    [w],
  );

  // Follow the scroll a frame at a time; a new state only when the scroll crosses a block of rows.
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    let frame = 0;
    const read = () => {
      frame = 0;
      const top = Math.floor(el.scrollTop / BLOCK) * BLOCK;
      setView((v) => (v.top === top && v.height === el.clientHeight ? v : { top, height: el.clientHeight }));
    };
    const onScroll = () => {
      frame ||= requestAnimationFrame(read);
    };
    read();
    el.addEventListener('scroll', onScroll, { passive: true });
    const resize = new ResizeObserver(onScroll);
    resize.observe(el);
    return () => {
      el.removeEventListener('scroll', onScroll);
      resize.disconnect();
      cancelAnimationFrame(frame);
    };
  }, []);

  // A new window or zoom opens at the page's date (a few days before it, for context).
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el) el.scrollLeft = Math.max(0, dayX(w, anchor) - 3 * w.dayWidth);
  }, [w, anchor]);

  const { start, end } = visibleRange(
    Math.max(0, view.top - HEADER_HEIGHT),
    view.height + BLOCK,
    ROW_HEIGHT,
    rows.length,
    OVERSCAN,
  );
  const shown = rows.slice(start, end);

  const indexOf = useMemo(() => {
    const m = new Map<string, number>();
    rows.forEach((r, i) => {
      if (r.kind === 'task') m.set(r.task.id, i);
    });
    return m;
  }, [rows]);

  const header = useMemo(() => headerCells(w, weekStartsOn), [w, weekStartsOn]);
  const todayX = today >= w.from && today <= w.to ? dayX(w, today) + w.dayWidth / 2 : null;
  const bodyHeight = rows.length * ROW_HEIGHT;

  return (
    <section
      ref={scroller}
      aria-label="Timeline chart"
      // A keyboard user scrolls the chart itself too (the rows out of view have no bars to tab to).
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
      tabIndex={0}
      className="relative max-h-[calc(100vh-15rem)] min-h-72 overflow-auto rounded-lg border border-slate-200 bg-white [--label-w:9rem] sm:[--label-w:15rem] dark:border-slate-700 dark:bg-slate-900"
    >
      <div className="relative" style={{ width: `calc(var(--label-w) + ${w.width}px)`, minHeight: HEADER_HEIGHT + bodyHeight }}>
        <div className="sticky top-0 z-20 flex border-b border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900">
          <div className="sticky left-0 z-30 flex w-[var(--label-w)] shrink-0 items-end border-r border-slate-200 bg-white px-3 pb-1 text-xs font-semibold text-slate-700 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200">
            Task
          </div>
          <div className="relative shrink-0 text-xs" style={{ width: w.width, height: HEADER_HEIGHT }}>
            {header.top.map((c) => (
              <div
                key={c.key}
                className="absolute top-0 h-6 border-l border-slate-200 leading-6 font-semibold text-slate-800 dark:border-slate-700 dark:text-slate-100"
                style={{ left: c.x, width: c.width }}
              >
                {/* The month's name stays in sight while its days scroll under the task names. */}
                <span className="sticky left-[var(--label-w)] inline-block max-w-full truncate px-1 align-top">{c.label}</span>
              </div>
            ))}
            {header.bottom.map((c) => (
              <div
                key={c.key}
                className={cn(
                  'absolute top-6 h-6 truncate border-l border-slate-200 leading-6 text-slate-600 dark:border-slate-700 dark:text-slate-300',
                  w.zoom === 'week' ? 'text-center' : 'px-1',
                )}
                style={{ left: c.x, width: c.width }}
              >
                {c.label}
              </div>
            ))}
            {todayX !== null && (
              <div
                aria-hidden
                className="absolute top-6 -translate-x-1/2 rounded bg-red-700 px-1 text-[10px] leading-4 font-semibold text-white"
                style={{ left: todayX }}
              >
                Today
              </div>
            )}
          </div>
        </div>

        {/*
          Two columns, so that only two things are sticky: the task names (one column that stays at the left) and the
          header. A sticky cell per row made every scroll step re-layer dozens of elements (measured: 60–110 ms long
          tasks scrolling 2,000 rows, against none without).
        */}
        <div className="relative flex" style={{ height: bodyHeight }}>
          <div className="sticky left-0 z-10 w-[var(--label-w)] shrink-0 border-r border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900">
            {shown.map((row, i) => (
              <RowLabel key={row.key} row={row} top={(start + i) * ROW_HEIGHT} onToggle={onToggle} />
            ))}
          </div>
          <div ref={origin} className="relative shrink-0" style={{ width: w.width }}>
            <div
              aria-hidden
              className="absolute inset-x-0"
              style={{ top: start * ROW_HEIGHT, height: (end - start) * ROW_HEIGHT }}
            >
              {header.bottom.map((c) => (
                <div
                  key={c.key}
                  className="absolute inset-y-0 border-l border-slate-100 dark:border-slate-800"
                  style={{ left: c.x }}
                />
              ))}
            </div>
            {todayX !== null && (
              <div
                role="img"
                aria-label={`Today, ${dayLabel(today, today)}`}
                className="absolute z-[1] w-0.5 bg-red-600 dark:bg-red-500"
                style={{ left: todayX - 1, top: start * ROW_HEIGHT, height: Math.max(end - start, 1) * ROW_HEIGHT }}
              />
            )}
            <Arrows w={w} rows={rows} indexOf={indexOf} dependencies={dependencies} from={start} to={end} />
            {shown.map((row, i) => (
              <RowBar
                key={row.key}
                row={row}
                top={(start + i) * ROW_HEIGHT}
                w={w}
                today={today}
                early={row.kind === 'task' ? early.get(row.task.id) : undefined}
                canMove={row.kind === 'task' && rights.canEditTask(row.task)}
                onShift={onShift}
                onOpen={onOpen}
              />
            ))}
          </div>
        </div>
      </div>
    </section>
  );
});

/** A row's name at the left: a project (folds its tasks) or a task, indented under its parent (folds its sub-tasks). */
const RowLabel = memo(function RowLabel({
  row,
  top,
  onToggle,
}: {
  row: TimelineRow;
  top: number;
  onToggle: (id: string) => void;
}) {
  const Chevron = row.isCollapsed ? ChevronRight : ChevronDown;
  if (row.kind === 'project') {
    return (
      <div
        className="absolute inset-x-0 flex items-center border-b border-slate-200 bg-slate-50 pr-2 dark:border-slate-700 dark:bg-slate-800"
        style={{ top, height: ROW_HEIGHT }}
      >
        <button
          type="button"
          aria-expanded={!row.isCollapsed}
          onClick={() => onToggle(row.project.id)}
          className="flex h-8 min-w-0 flex-1 items-center gap-1 rounded px-2 text-left text-sm font-semibold text-slate-900 hover:bg-slate-200 dark:text-slate-100 dark:hover:bg-slate-700"
        >
          <Chevron className="h-4 w-4 shrink-0" aria-hidden />
          <span className="truncate">{row.project.name}</span>
          <span className="shrink-0 font-normal text-slate-600 dark:text-slate-300">({row.count})</span>
        </button>
      </div>
    );
  }
  const { task, depth } = row;
  return (
    <div
      className="absolute inset-x-0 flex items-center gap-1 border-b border-slate-100 pr-2 text-sm dark:border-slate-800"
      style={{ top, height: ROW_HEIGHT, paddingLeft: 8 + depth * 14 }}
    >
      {row.childCount > 0 ? (
        <button
          type="button"
          aria-expanded={!row.isCollapsed}
          aria-label={`Sub-tasks of ${task.title}`}
          onClick={() => onToggle(task.id)}
          className="flex h-6 w-6 shrink-0 items-center justify-center rounded text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
        >
          <Chevron className="h-4 w-4" aria-hidden />
        </button>
      ) : (
        <span className="w-6 shrink-0" aria-hidden />
      )}
      <Link
        to={`/tasks/${task.id}`}
        className="truncate text-slate-800 hover:underline dark:text-slate-100"
        title={task.title}
        tabIndex={-1}
      >
        {task.title}
      </Link>
    </div>
  );
});

interface RowBarProps {
  row: TimelineRow;
  top: number;
  w: TimelineWindow;
  today: string;
  early: string[] | undefined;
  canMove: boolean;
  onShift: (task: TimelineTask, edge: BarEdge, days: number) => void;
  onOpen: (task: TimelineTask) => void;
}

/** A row's part of the chart: a project's band, or a task's bar or diamond. */
const RowBar = memo(function RowBar({ row, top, w, today, early, canMove, onShift, onOpen }: RowBarProps) {
  if (row.kind === 'project') {
    return (
      <div
        aria-hidden
        className="absolute inset-x-0 border-b border-slate-200 bg-slate-50 dark:border-slate-700 dark:bg-slate-800"
        style={{ top, height: ROW_HEIGHT }}
      />
    );
  }
  return (
    <div className="absolute inset-x-0 border-b border-slate-100 dark:border-slate-800" style={{ top, height: ROW_HEIGHT }}>
      <TimelineBar task={row.task} window={w} today={today} earlyOf={early} canMove={canMove} onShift={onShift} onOpen={onOpen} />
    </div>
  );
});

interface ArrowsProps {
  w: TimelineWindow;
  rows: TimelineRow[];
  indexOf: ReadonlyMap<string, number>;
  dependencies: readonly TimelineDependency[];
  /** The drawn rows: arrows touching one of them are drawn. */
  from: number;
  to: number;
}

/** Blocker → blocked arrows: from the blocker's end to the blocked task's start; red and dashed when it starts early. */
const Arrows = memo(function Arrows({ w, rows, indexOf, dependencies, from, to }: ArrowsProps) {
  const paths = useMemo(() => {
    const out: { key: string; d: string; isEarly: boolean }[] = [];
    for (const dep of dependencies) {
      const a = indexOf.get(dep.blockedById);
      const b = indexOf.get(dep.taskId);
      if (a === undefined || b === undefined) continue;
      if ((a < from || a >= to) && (b < from || b >= to) && !(Math.min(a, b) < from && Math.max(a, b) >= to)) continue;
      const blocker = rows[a];
      const blocked = rows[b];
      if (blocker?.kind !== 'task' || blocked?.kind !== 'task') continue;
      const sa = taskSpan(blocker.task);
      const sb = taskSpan(blocked.task);
      if (!sa || !sb) continue;
      const x1 = dayX(w, sa.last) + w.dayWidth;
      const y1 = (a - from) * ROW_HEIGHT + ROW_HEIGHT / 2;
      const x2 = dayX(w, sb.first);
      const y2 = (b - from) * ROW_HEIGHT + ROW_HEIGHT / 2;
      const turn = x1 + 6;
      const d =
        x2 - 8 >= turn
          ? `M${x1} ${y1}H${turn}V${y2}H${x2 - 2}`
          : `M${x1} ${y1}H${turn}V${y2 - Math.sign(y2 - y1 || 1) * (ROW_HEIGHT / 2)}H${x2 - 10}V${y2}H${x2 - 2}`;
      out.push({ key: `${dep.blockedById}>${dep.taskId}`, d, isEarly: sb.first <= sa.last });
    }
    return out;
  }, [w, rows, indexOf, dependencies, from, to]);
  // Only as tall as the drawn rows; an arrow to a row out of view runs past its edge.
  return (
    <svg
      aria-hidden="true"
      className="pointer-events-none absolute left-0 z-[1] overflow-visible"
      style={{ top: from * ROW_HEIGHT }}
      width={w.width}
      height={(to - from) * ROW_HEIGHT}
    >
      <defs>
        <marker id="timeline-arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto">
          <path d="M0 0L8 4L0 8z" className="fill-slate-500 dark:fill-slate-400" />
        </marker>
        <marker id="timeline-arrow-early" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto">
          <path d="M0 0L8 4L0 8z" className="fill-red-600 dark:fill-red-400" />
        </marker>
      </defs>
      {paths.map((p) => (
        <path
          key={p.key}
          d={p.d}
          fill="none"
          strokeWidth={1.5}
          strokeDasharray={p.isEarly ? '4 3' : undefined}
          markerEnd={`url(#${p.isEarly ? 'timeline-arrow-early' : 'timeline-arrow'})`}
          className={p.isEarly ? 'stroke-red-600 dark:stroke-red-400' : 'stroke-slate-500 dark:stroke-slate-400'}
          data-testid="timeline-arrow"
        />
      ))}
    </svg>
  );
});
