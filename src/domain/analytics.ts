/**
 * Pure rules of the Analytics page (issue 24, decision 0018): the period and its weeks in the caller's time zone,
 * the cycle-time buckets, and the percentile the database computes. The server counts in SQL; these decide the
 * weeks it counts over, and say in code what each figure means.
 */
import type { TaskStatus } from './constants';
import { addDays, daysBetween, parseIsoDate } from './dates';
import { ANALYTICS_LIMITS, type AnalyticsQuery } from './schemas/analytics';
import { wallClock } from './schemas/time-zone';

/** The statuses of an open task (Work in progress, ageing, workload, overdue). */
export const OPEN_TASK_STATUSES = ['todo', 'in_progress', 'review'] as const satisfies readonly TaskStatus[];

/** The default period: the current week and the 11 before it. */
export const DEFAULT_ANALYTICS_WEEKS = 12;
const HOUR_MS = 3_600_000;
const DAY_HOURS = 24;

/**
 * The cycle-time distribution's buckets: [minHours, maxHours), the last open-ended. Their labels are the page's
 * text and the CSV's.
 */
export const CYCLE_TIME_BUCKETS: readonly { label: string; minHours: number; maxHours: number | null }[] = [
  { label: '< 1 day', minHours: 0, maxHours: DAY_HOURS },
  { label: '1–2 days', minHours: DAY_HOURS, maxHours: 2 * DAY_HOURS },
  { label: '2–4 days', minHours: 2 * DAY_HOURS, maxHours: 4 * DAY_HOURS },
  { label: '4–7 days', minHours: 4 * DAY_HOURS, maxHours: 7 * DAY_HOURS },
  { label: '1–2 weeks', minHours: 7 * DAY_HOURS, maxHours: 14 * DAY_HOURS },
  { label: '2–4 weeks', minHours: 14 * DAY_HOURS, maxHours: 28 * DAY_HOURS },
  { label: '4 weeks or more', minHours: 28 * DAY_HOURS, maxHours: null },
];

/** The bucket a cycle time falls in (index into CYCLE_TIME_BUCKETS); a negative time (a clock skew) counts as 0. */
export function cycleTimeBucket(hours: number): number {
  return CYCLE_TIME_BUCKETS.findIndex((b) => b.maxHours === null || hours < b.maxHours);
}

/**
 * The continuous percentile (PostgreSQL's `percentile_cont`): the value at rank p·(n−1) of the sorted values,
 * interpolated linearly between its neighbours; null with no value. The median is p = 0.5.
 */
export function percentileCont(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = p * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
}

/** Hours as the API gives them: two decimals. */
export const roundHours = (hours: number): number => Math.round(hours * 100) / 100;

// ---------------------------------------------------------------------------------------------------------------
// Calendar weeks (Monday to Sunday) and time zones

/** ISO weekday of a calendar date: 1 Monday … 7 Sunday. */
export function isoWeekday(date: string): number {
  return ((parseIsoDate(date).getUTCDay() + 6) % 7) + 1;
}

/** The Monday that starts the week (Monday to Sunday) holding `date`. */
export function mondayOf(date: string): string {
  return addDays(date, 1 - isoWeekday(date));
}

/** The wall-clock reading of an instant in a zone, as if it were UTC (milliseconds since the epoch). */
const wallMs = (instant: number, timeZone: string): number => wallClock(instant, timeZone).asUtcMs;

/** The zone's offset from UTC at an instant, in milliseconds (Paris in winter: +3,600,000). */
export function zoneOffsetMs(instant: Date | number, timeZone: string): number {
  const t = typeof instant === 'number' ? instant : instant.getTime();
  return wallMs(t, timeZone) - (t - (((t % 1000) + 1000) % 1000));
}

/** The calendar date of an instant in a zone. */
export function localDateIn(instant: Date | number, timeZone: string): string {
  return wallClock(instant, timeZone).date;
}

/**
 * The instant a calendar date begins in a zone: its local midnight, or, where the clocks skip midnight (a
 * daylight-saving change at 00:00), the first instant of that date.
 */
export function startOfLocalDay(date: string, timeZone: string): Date {
  const wall = parseIsoDate(date).getTime();
  // Local midnight at the offset in force before it, after it, or at the first guess: the earliest that reads
  // midnight of that date (two of them where the clocks go back over midnight).
  const guess = wall - zoneOffsetMs(wall, timeZone);
  const candidates = [
    wall - zoneOffsetMs(wall - 12 * HOUR_MS, timeZone),
    wall - zoneOffsetMs(wall + 12 * HOUR_MS, timeZone),
    wall - zoneOffsetMs(guess, timeZone),
  ].filter((t) => wallMs(t, timeZone) === wall);
  if (candidates.length > 0) return new Date(Math.min(...candidates));
  // Midnight does not exist that day (the clocks skip it): the date begins when they jump.
  let lo = wall - 15 * HOUR_MS;
  let hi = wall + 15 * HOUR_MS;
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (localDateIn(mid, timeZone) < date) lo = mid;
    else hi = mid;
  }
  return new Date(hi);
}

/** The Monday of the week (in the zone) an instant falls in. */
export function weekOf(instant: Date | number, timeZone: string): string {
  return mondayOf(localDateIn(instant, timeZone));
}

/** The first day of the calendar month holding `date`, and of the month before. */
export function monthStarts(date: string): { current: string; previous: string } {
  const d = parseIsoDate(date);
  const current = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  const previous = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1));
  return { current: current.toISOString().slice(0, 10), previous: previous.toISOString().slice(0, 10) };
}

// ---------------------------------------------------------------------------------------------------------------
// The period

export interface AnalyticsPeriod {
  /** The Mondays of the period's weeks, oldest first. */
  weeks: string[];
  /** The period's first day (the first Monday) and its last counted day (today at most). */
  from: string;
  to: string;
}

/**
 * The weeks a query covers, seen from `today` (the caller's local date): `weeks` N = this week and the N−1 before
 * it; `from`/`to` = every week touching the range. Days after today are not counted (`to` is today at most).
 */
export function resolvePeriod(query: Pick<AnalyticsQuery, 'weeks' | 'from' | 'to'>, today: string): AnalyticsPeriod {
  let first: string;
  let last: string;
  let to: string;
  if (query.from && query.to) {
    first = mondayOf(query.from);
    last = mondayOf(query.to);
    const lastSunday = addDays(last, 6);
    to = lastSunday < today ? lastSunday : today;
    if (to < first) to = first;
  } else {
    const n = query.weeks ?? DEFAULT_ANALYTICS_WEEKS;
    last = mondayOf(today);
    first = addDays(last, -7 * (n - 1));
    to = today;
  }
  const count = daysBetween(first, last) / 7 + 1;
  const weeks = Array.from({ length: count }, (_, i) => addDays(first, 7 * i));
  return { weeks, from: first, to };
}

/** What the database needs of a week: when it begins and ends (now at most), and its last counted day. */
export interface WeekWindow {
  week: string;
  /** Monday 00:00 in the zone. */
  startAt: Date;
  /** Sunday 24:00 in the zone (the next Monday's start). */
  fullEndAt: Date;
  /** The week's end for the figures taken at it: fullEndAt, or `now` when that is earlier. */
  endAt: Date;
  /** The day overdue is judged on at the week's end: its Sunday, or today in the current week. */
  lastDay: string;
}

/** The weeks of `weeks` (their Mondays) in a zone, seen at `now` (whose local date is `today`). */
export function weekWindows(weeks: readonly string[], timeZone: string, now: Date, today: string): WeekWindow[] {
  // Each week ends where the next begins: n + 1 local midnights.
  const starts = [...weeks, weeks.length ? addDays(weeks[weeks.length - 1]!, 7) : '']
    .filter(Boolean)
    .map((d) => startOfLocalDay(d, timeZone));
  return weeks.map((week, i) => {
    const sunday = addDays(week, 6);
    const fullEndAt = starts[i + 1]!;
    return {
      week,
      startAt: starts[i]!,
      fullEndAt,
      endAt: fullEndAt.getTime() < now.getTime() ? fullEndAt : now,
      lastDay: sunday < today ? sunday : today,
    };
  });
}

/** Whole days from `since` to `now` (the ageing list). */
export const wholeDaysSince = (since: Date, now: Date): number =>
  Math.max(0, Math.floor((now.getTime() - since.getTime()) / (DAY_HOURS * HOUR_MS)));

/** The longest custom range, in days (the query's own check; here for the page's date inputs). */
export const ANALYTICS_MAX_RANGE_DAYS = ANALYTICS_LIMITS.customRangeMaxDays;
