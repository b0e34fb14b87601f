/**
 * The timeline's arithmetic (issue 37): its window per zoom, where a day is on the x axis, the rows (projects, tasks,
 * sub-tasks under their parent, collapsible), the bars that start before a blocker ends, and the texts a screen reader
 * hears. Pure: calendar dates are YYYY-MM-DD strings; "today" comes from the caller.
 */
import { addMonths, endOfMonth, startOfMonth, startOfWeekOn, type Weekday } from '../../../domain/calendar';
import { addDays, daysBetween, parseIsoDate } from '../../../domain/dates';
import type { TimelineDependency, TimelineProject, TimelineTask } from '../../../domain/schemas/timeline';

export const ZOOMS = ['week', 'month', 'quarter'] as const;
export type Zoom = (typeof ZOOMS)[number];
export const ZOOM_LABELS: Record<Zoom, string> = { week: 'Week', month: 'Month', quarter: 'Quarter' };
export const parseZoom = (value: string | null | undefined): Zoom => (value === 'week' || value === 'quarter' ? value : 'month');

/** Pixels a day takes at each zoom: a week of days to read, four months, a year. */
export const DAY_WIDTH: Record<Zoom, number> = { week: 44, month: 14, quarter: 4 };

export interface TimelineWindow {
  zoom: Zoom;
  /** The first and last day drawn (inclusive); at most 400 days apart (the route's limit). */
  from: string;
  to: string;
  dayWidth: number;
  /** The chart's width in pixels. */
  width: number;
  /** 'Nov 2026 – Feb 2027'. */
  title: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const monthOf = (date: string) => MONTHS[Number(date.slice(5, 7)) - 1]!;
const startOfQuarter = (date: string) =>
  `${date.slice(0, 5)}${String(Math.floor((Number(date.slice(5, 7)) - 1) / 3) * 3 + 1).padStart(2, '0')}-01`;

/**
 * The days drawn around `date`: six weeks from the week before (Week), four months from the month before (Month),
 * four quarters from the quarter before (Quarter).
 */
export function timelineWindow(zoom: Zoom, date: string, weekStartsOn: Weekday): TimelineWindow {
  let from: string;
  let to: string;
  if (zoom === 'week') {
    from = addDays(startOfWeekOn(date, weekStartsOn), -7);
    to = addDays(from, 6 * 7 - 1);
  } else if (zoom === 'month') {
    from = addMonths(startOfMonth(date), -1);
    to = endOfMonth(addMonths(from, 3));
  } else {
    from = addMonths(startOfQuarter(date), -3);
    to = addDays(addMonths(from, 12), -1);
  }
  const dayWidth = DAY_WIDTH[zoom];
  const title = `${monthOf(from)} ${from.slice(0, 4)} – ${monthOf(to)} ${to.slice(0, 4)}`;
  return { zoom, from, to, dayWidth, width: (daysBetween(from, to) + 1) * dayWidth, title };
}

/** Where 'Previous' (-1) and 'Next' (+1) go: a week, a month or a quarter away. */
export function shiftTimelineDate(zoom: Zoom, date: string, step: number): string {
  if (zoom === 'week') return addDays(date, 7 * step);
  return addMonths(date, (zoom === 'month' ? 1 : 3) * step);
}

/** The x of a day's left edge in the chart. */
export const dayX = (w: Pick<TimelineWindow, 'from' | 'dayWidth'>, date: string): number =>
  daysBetween(w.from, date) * w.dayWidth;

/** The day under an x of the chart (clamped to nothing: a drop left of the chart is a day before `from`). */
export const dayAtX = (w: Pick<TimelineWindow, 'from' | 'dayWidth'>, x: number): string =>
  addDays(w.from, Math.floor(x / w.dayWidth));

export interface HeaderCell {
  key: string;
  label: string;
  /** A longer name for a screen reader or a tooltip ('December 2026'). */
  x: number;
  width: number;
}

/** The two rows of the header: months (quarters at Quarter zoom) above; days, week starts or months below. */
export function headerCells(w: TimelineWindow, weekStartsOn: Weekday): { top: HeaderCell[]; bottom: HeaderCell[] } {
  const top: HeaderCell[] = [];
  const bottom: HeaderCell[] = [];
  const end = addDays(w.to, 1);
  const span = (key: string, label: string, a: string, b: string, into: HeaderCell[]) => {
    const left = a < w.from ? w.from : a;
    const right = b > end ? end : b;
    if (left < right) into.push({ key, label, x: dayX(w, left), width: daysBetween(left, right) * w.dayWidth });
  };
  for (let m = startOfMonth(w.from); m < end; m = addMonths(m, 1)) {
    const next = addMonths(m, 1);
    if (w.zoom === 'quarter') {
      span(m, monthOf(m), m, next, bottom);
    } else {
      span(m, `${monthOf(m)} ${m.slice(0, 4)}`, m, next, top);
    }
  }
  if (w.zoom === 'quarter') {
    for (let q = startOfQuarter(w.from); q < end; q = addMonths(q, 3)) {
      const n = Math.floor((Number(q.slice(5, 7)) - 1) / 3) + 1;
      span(q, `Q${n} ${q.slice(0, 4)}`, q, addMonths(q, 3), top);
    }
  } else if (w.zoom === 'week') {
    for (let d = w.from; d < end; d = addDays(d, 1)) span(d, String(Number(d.slice(8, 10))), d, addDays(d, 1), bottom);
  } else {
    for (let d = startOfWeekOn(w.from, weekStartsOn); d < end; d = addDays(d, 7)) {
      span(d, String(Number((d < w.from ? w.from : d).slice(8, 10))), d, addDays(d, 7), bottom);
    }
  }
  return { top, bottom };
}

/** A task's first and last day on the chart (a diamond's are the same day). */
export function taskSpan(t: Pick<TimelineTask, 'startDate' | 'dueDate'>): { first: string; last: string } | null {
  const first = t.startDate ?? t.dueDate;
  const last = t.dueDate ?? t.startDate;
  return first && last ? { first, last } : null;
}

/** A bar has both dates; a diamond only one. */
export const isDiamond = (t: Pick<TimelineTask, 'startDate' | 'dueDate'>) => (t.startDate === null) !== (t.dueDate === null);

export type TimelineRow =
  | { kind: 'project'; key: string; project: TimelineProject; count: number; isCollapsed: boolean }
  | { kind: 'task'; key: string; task: TimelineTask; depth: number; childCount: number; isCollapsed: boolean };

/**
 * The rows drawn: each project's header, then its tasks in the answer's order with each task's sub-tasks right after
 * it (a sub-task whose parent is not in the window stands at the top level). A collapsed project or task hides what is
 * under it.
 */
export function buildRows(
  tasks: readonly TimelineTask[],
  projects: readonly TimelineProject[],
  collapsed: ReadonlySet<string>,
): TimelineRow[] {
  const ids = new Set(tasks.map((t) => t.id));
  const children = new Map<string, TimelineTask[]>();
  const roots = new Map<string, TimelineTask[]>();
  for (const t of tasks) {
    const under = t.parentId && ids.has(t.parentId) ? children : roots;
    const key = t.parentId && ids.has(t.parentId) ? t.parentId : t.projectId;
    const list = under.get(key);
    if (list) list.push(t);
    else under.set(key, [t]);
  }
  const projectOrder = [...projects].filter((p) => roots.has(p.id));
  // A project the answer's list lacks (it should not): still drawn, under its id.
  for (const id of roots.keys()) {
    if (!projectOrder.some((p) => p.id === id)) projectOrder.push({ id, name: 'Project' });
  }
  const rows: TimelineRow[] = [];
  const countUnder = (id: string): number => (children.get(id) ?? []).reduce((n, c) => n + 1 + countUnder(c.id), 0);
  const visit = (t: TimelineTask, depth: number) => {
    const kids = children.get(t.id) ?? [];
    const isCollapsed = collapsed.has(t.id);
    rows.push({ kind: 'task', key: t.id, task: t, depth, childCount: kids.length, isCollapsed });
    if (!isCollapsed) for (const c of kids) visit(c, depth + 1);
  };
  for (const project of projectOrder) {
    const top = roots.get(project.id) ?? [];
    const count = top.reduce((n, t) => n + 1 + countUnder(t.id), 0);
    const isCollapsed = collapsed.has(project.id);
    rows.push({ kind: 'project', key: `project:${project.id}`, project, count, isCollapsed });
    if (!isCollapsed) for (const t of top) visit(t, 0);
  }
  return rows;
}

/**
 * Tasks that start before one of their blockers ends (on or before the blocker's last day): each with the titles of
 * those blockers. Only edges whose both ends are dated count.
 */
export function earlyStarts(tasks: readonly TimelineTask[], dependencies: readonly TimelineDependency[]): Map<string, string[]> {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const early = new Map<string, string[]>();
  for (const d of dependencies) {
    const task = byId.get(d.taskId);
    const blocker = byId.get(d.blockedById);
    const a = task && taskSpan(task);
    const b = blocker && taskSpan(blocker);
    if (!a || !b || a.first > b.last) continue;
    const list = early.get(d.taskId);
    if (list) list.push(blocker.title);
    else early.set(d.taskId, [blocker.title]);
  }
  return early;
}

/** '3 Dec', with the year when it is not `today`'s ('3 Dec 2027'). */
export function dayLabel(date: string, today: string): string {
  const d = parseIsoDate(date);
  const base = `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
  return date.slice(0, 4) === today.slice(0, 4) ? base : `${base} ${date.slice(0, 4)}`;
}

/** The dates of a task as spoken: '3 Dec to 7 Dec', 'due 3 Dec', 'starts 3 Dec'. */
export function datesText(t: Pick<TimelineTask, 'startDate' | 'dueDate'>, today: string): string {
  if (t.startDate && t.dueDate) return `${dayLabel(t.startDate, today)} to ${dayLabel(t.dueDate, today)}`;
  if (t.dueDate) return `due ${dayLabel(t.dueDate, today)}`;
  if (t.startDate) return `starts ${dayLabel(t.startDate, today)}`;
  return 'no dates';
}

export const EARLY_START_TEXT = 'starts before its blocker ends';

/** A bar's or diamond's accessible name: 'Write spec, 3 Dec to 7 Dec' (and the early-start mark when it has one). */
export function barName(t: TimelineTask, today: string, isEarly: boolean): string {
  return `${t.title}, ${datesText(t, today)}${isEarly ? `, ${EARLY_START_TEXT}` : ''}`;
}

/** The dates of a change as announced: '6 Dec – 10 Dec', or one day. */
export function rangeText(start: string | null, due: string | null, today: string): string {
  if (start && due) return start === due ? dayLabel(due, today) : `${dayLabel(start, today)} – ${dayLabel(due, today)}`;
  const one = start ?? due;
  return one ? dayLabel(one, today) : 'no dates';
}

export interface DateChange {
  startDate: string | null;
  dueDate: string | null;
}

/**
 * A bar moved by `days` (both dates), or one end moved: 'start' or 'end'. A diamond's end moving makes it a bar from
 * its day. Returns null when the change would put the start after the due date (the rule refuses it).
 */
export function shiftDates(t: DateChange, edge: 'move' | 'start' | 'end', days: number): DateChange | null {
  const span = taskSpan(t);
  if (!span) return null;
  if (edge === 'move') {
    return {
      startDate: t.startDate && addDays(t.startDate, days),
      dueDate: t.dueDate && addDays(t.dueDate, days),
    };
  }
  const next =
    edge === 'end'
      ? { startDate: span.first, dueDate: addDays(span.last, days) }
      : { startDate: addDays(span.first, days), dueDate: span.last };
  return next.startDate > next.dueDate ? null : next;
}

/** The first index and the index past the last of the rows in view, with `overscan` rows more on each side. */
export function visibleRange(
  scrollTop: number,
  height: number,
  rowHeight: number,
  count: number,
  overscan: number,
): { start: number; end: number } {
  const start = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const end = Math.min(count, Math.ceil((scrollTop + height) / rowHeight) + overscan);
  return { start, end: Math.max(start, end) };
}

/**
 * The answer's tasks in the order the page already shows them: a task seen before keeps its place (a bar moved by
 * three days does not jump to another row when the answer comes back re-sorted, nor lose the keyboard's focus), a new
 * one comes after the task the answer puts before it.
 */
export function keepOrder(previous: readonly string[], tasks: readonly TimelineTask[]): TimelineTask[] {
  if (previous.length === 0) return [...tasks];
  const rank = new Map(previous.map((id, i) => [id, i]));
  let lastKnown = -1;
  let seq = 0;
  const keyed = tasks.map((t, i) => {
    const r = rank.get(t.id);
    if (r !== undefined) {
      lastKnown = r;
      seq = 0;
      return { t, a: r, b: 0, i };
    }
    seq += 1;
    return { t, a: lastKnown, b: seq, i };
  });
  keyed.sort((x, y) => x.a - y.a || x.b - y.b || x.i - y.i);
  return keyed.map((k) => k.t);
}
