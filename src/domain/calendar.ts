/**
 * The calendar page's date grid (issue 23). Pure: calendar dates are YYYY-MM-DD strings with no time zone (a task
 * due on the 5th is on the 5th wherever it is seen), "today" and the first day of the week come from the caller.
 */
import { addDays, daysBetween, parseIsoDate } from './dates';
import { isClosed, type StatusCategory } from './workflow';

export const CALENDAR_VIEWS = ['month', 'week'] as const;
export type CalendarView = (typeof CALENDAR_VIEWS)[number];

/** 0 = Sunday … 6 = Saturday (as Date#getUTCDay counts). */
export type Weekday = 0 | 1 | 2 | 3 | 4 | 5 | 6;

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

const monthName = (date: string) => MONTH_NAMES[Number(date.slice(5, 7)) - 1]!;
const shortMonth = (date: string) => monthName(date).slice(0, 3);
const dayOfMonth = (date: string) => Number(date.slice(8, 10));
const weekdayOf = (date: string) => parseIsoDate(date).getUTCDay() as Weekday;

interface WeekInfo {
  firstDay?: number;
}
type LocaleWithWeekInfo = Intl.Locale & { getWeekInfo?: () => WeekInfo; weekInfo?: WeekInfo };

/**
 * The first day of the week in a locale (Intl.Locale week info: `getWeekInfo()`, or the older `weekInfo`), Monday
 * where the runtime does not know it or the locale is not one.
 */
export function localeWeekStart(locale: string | undefined): Weekday {
  try {
    if (!locale) return 1;
    const loc = new Intl.Locale(locale) as LocaleWithWeekInfo;
    const info = typeof loc.getWeekInfo === 'function' ? loc.getWeekInfo() : loc.weekInfo;
    const first = info?.firstDay;
    // Week info counts 1 = Monday … 7 = Sunday.
    if (typeof first === 'number' && Number.isInteger(first) && first >= 1 && first <= 7) return (first % 7) as Weekday;
  } catch {
    // not a locale tag
  }
  return 1;
}

/** The first day of the week holding `date`, weeks starting on `weekStartsOn`. */
export function startOfWeekOn(date: string, weekStartsOn: Weekday): string {
  return addDays(date, -((weekdayOf(date) - weekStartsOn + 7) % 7));
}

export const startOfMonth = (date: string): string => `${date.slice(0, 8)}01`;

/** The last day of the month holding `date`. */
export function endOfMonth(date: string): string {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/** `date` moved by whole months; a day the target month lacks becomes its last day (Jan 31 + 1 → Feb 28/29). */
export function addMonths(date: string, months: number): string {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7)) - 1 + months;
  const first = new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
  const last = endOfMonth(first);
  return dayOfMonth(date) > dayOfMonth(last) ? last : `${first.slice(0, 8)}${date.slice(8, 10)}`;
}

/** Every date from `from` to `to`, both included. */
export function datesBetween(from: string, to: string): string[] {
  const n = daysBetween(from, to);
  return Array.from({ length: Math.max(0, n + 1) }, (_, i) => addDays(from, i));
}

export interface CalendarRange {
  view: CalendarView;
  /** The first and last day shown (inclusive): whole weeks. */
  from: string;
  to: string;
  /** The shown days a week at a time (one week in the week view, 4–6 in the month view). */
  weeks: string[][];
  /** The range's name: 'November 2026', or 'Nov 2 – 8, 2026' for a week. */
  title: string;
}

/** The days the calendar shows around `date`: its month's weeks, or its week. */
export function calendarRange(view: CalendarView, date: string, weekStartsOn: Weekday): CalendarRange {
  const from = startOfWeekOn(view === 'month' ? startOfMonth(date) : date, weekStartsOn);
  const to = view === 'month' ? addDays(startOfWeekOn(endOfMonth(date), weekStartsOn), 6) : addDays(from, 6);
  const days = datesBetween(from, to);
  const weeks: string[][] = [];
  for (let i = 0; i < days.length; i += 7) weeks.push(days.slice(i, i + 7));
  const title = view === 'month' ? `${monthName(date)} ${date.slice(0, 4)}` : weekTitle(from, to);
  return { view, from, to, weeks, title };
}

/** 'Nov 2 – 8, 2026', 'Oct 26 – Nov 1, 2026', 'Dec 28, 2026 – Jan 3, 2027'. */
export function weekTitle(from: string, to: string): string {
  const fromYear = from.slice(0, 4);
  const toYear = to.slice(0, 4);
  const end = `${from.slice(0, 7) === to.slice(0, 7) ? '' : `${shortMonth(to)} `}${dayOfMonth(to)}, ${toYear}`;
  return `${shortMonth(from)} ${dayOfMonth(from)}${fromYear === toYear ? '' : `, ${fromYear}`} – ${end}`;
}

/** The date 'Previous' (-1) or 'Next' (+1) goes to: a month or a week away. */
export function shiftDate(view: CalendarView, date: string, step: number): string {
  return view === 'month' ? addMonths(date, step) : addDays(date, 7 * step);
}

/** Whether `date` lies in the month the range is about (the month view shows the neighbours' days muted). */
export const inMonth = (date: string, of: string): boolean => date.slice(0, 7) === of.slice(0, 7);

/** The weekday names of a week starting on `weekStartsOn`: 'Monday' … or 'Mon' … with `short`. */
export function weekdayNames(weekStartsOn: Weekday, short = false): string[] {
  return Array.from({ length: 7 }, (_, i) => {
    const name = DAY_NAMES[(weekStartsOn + i) % 7]!;
    return short ? name.slice(0, 3) : name;
  });
}

/** 'Monday, November 2, 2026': a day's full name, for labels and headings. */
export function longDayLabel(date: string): string {
  return `${DAY_NAMES[weekdayOf(date)]}, ${monthName(date)} ${dayOfMonth(date)}, ${date.slice(0, 4)}`;
}

/** 'Mon, Nov 2': a day's short name, for the agenda and toasts. */
export function shortDayLabel(date: string): string {
  return `${DAY_NAMES[weekdayOf(date)]!.slice(0, 3)}, ${shortMonth(date)} ${dayOfMonth(date)}`;
}

/** The day of the month, '1' … '31', with the month's short name on its first day ('Dec 1'). */
export function cellDayLabel(date: string): string {
  return dayOfMonth(date) === 1 ? `${shortMonth(date)} 1` : String(dayOfMonth(date));
}

/** A YYYY-MM-DD that is a real date, or null. */
export function parseCalendarDate(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    parseIsoDate(value);
    return value;
  } catch {
    return null;
  }
}

export const parseCalendarView = (value: string | null | undefined): CalendarView => (value === 'week' ? 'week' : 'month');

interface CalendarTask {
  id: string;
  title: string;
  statusCategory: StatusCategory;
  priority: string;
  dueDate: string | null;
}

const PRIORITY_RANK: Record<string, number> = { urgent: 0, high: 1, medium: 2, low: 3 };

/** A day's order: open tasks before closed ones (completed or canceled), then the most urgent first, then by title. */
export function compareDayTasks(a: CalendarTask, b: CalendarTask): number {
  const done = Number(isClosed(a.statusCategory)) - Number(isClosed(b.statusCategory));
  if (done) return done;
  const rank = (PRIORITY_RANK[a.priority] ?? 9) - (PRIORITY_RANK[b.priority] ?? 9);
  if (rank) return rank;
  return a.title.localeCompare(b.title) || a.id.localeCompare(b.id);
}

/** The tasks due on each of `days`, in each day's order; tasks due on no shown day are left out. */
export function tasksByDay<T extends CalendarTask>(tasks: readonly T[], days: readonly string[]): Map<string, T[]> {
  const byDay = new Map<string, T[]>(days.map((d) => [d, []]));
  for (const task of tasks) {
    if (task.dueDate) byDay.get(task.dueDate)?.push(task);
  }
  for (const list of byDay.values()) list.sort(compareDayTasks);
  return byDay;
}

/** The days among `days` that have tasks, in order, each with its tasks (the narrow screen's agenda). */
export function agendaDays<T extends CalendarTask>(tasks: readonly T[], days: readonly string[]): { date: string; tasks: T[] }[] {
  return [...tasksByDay(tasks, days)].filter(([, list]) => list.length > 0).map(([date, list]) => ({ date, tasks: list }));
}

/**
 * How many of a day's `count` tasks a cell with room for `capacity` lines shows, and how many the '+N more' button
 * stands for: all when they fit, else one line fewer than the room (the button takes that line).
 */
export function fitDay(count: number, capacity: number): { shown: number; more: number } {
  const room = Math.max(1, capacity);
  if (count <= room) return { shown: count, more: 0 };
  const shown = room - 1;
  return { shown, more: count - shown };
}

/** How far an arrow key moves a dragged task: a day sideways, a week up or down. */
export function arrowStep(key: string): number | null {
  switch (key) {
    case 'ArrowLeft':
      return -1;
    case 'ArrowRight':
      return 1;
    case 'ArrowUp':
      return -7;
    case 'ArrowDown':
      return 7;
    default:
      return null;
  }
}
