/**
 * Calendar and relative-time rules (spec §9 'Relative time', 'Deadline labels', 'Date formats').
 * Pure: no library, no clock. Calendar dates travel as YYYY-MM-DD strings with no time zone;
 * the caller supplies "today" in its own zone. Weeks run Sunday to Saturday (date-fns' default).
 */

import { MSG } from './messages';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** A YYYY-MM-DD date as midnight UTC (so day arithmetic ignores daylight saving). Throws on a bad date. */
export function parseIsoDate(date: string): Date {
  const m = ISO_DATE.exec(date);
  const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!d || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== date) {
    throw new RangeError(`not a YYYY-MM-DD date: ${date}`);
  }
  return d;
}

/** The calendar date of a moment in the viewer's own time zone. */
export function localIsoDate(moment: Date = new Date()): string {
  const y = String(moment.getFullYear()).padStart(4, '0');
  const m = String(moment.getMonth() + 1).padStart(2, '0');
  const d = String(moment.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** `date` plus `days` calendar days (negative to go back). */
export function addDays(date: string, days: number): string {
  return new Date(parseIsoDate(date).getTime() + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole calendar days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: string, to: string): number {
  return Math.round((parseIsoDate(to).getTime() - parseIsoDate(from).getTime()) / DAY_MS);
}

/** The Sunday that starts the week holding `date`. */
export function startOfWeek(date: string): string {
  return addDays(date, -parseIsoDate(date).getUTCDay());
}

/** 'MMM dd' of a calendar date, e.g. 'Mar 05'. */
export function formatShortDate(date: string): string {
  const d = parseIsoDate(date);
  return `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** 'MMM dd, yyyy' of a calendar date, e.g. 'Mar 05, 2025'. */
export function formatLongDate(date: string): string {
  return `${formatShortDate(date)}, ${date.slice(0, 4)}`;
}

/** The weekday name of a calendar date, e.g. 'Wednesday'. */
export function weekdayName(date: string): string {
  return WEEKDAYS[parseIsoDate(date).getUTCDay()]!;
}

/** Past and not today (a calendar comparison, so the whole due day counts as on time). */
export function isOverdue(dueDate: string, today: string): boolean {
  return dueDate < today;
}

/** The date rule's refusal (code and text: TASK_STRUCTURE_ERRORS in task-structure-errors.ts). */
export type DateRuleReason = 'start_after_due';

/**
 * A task's start date against its due date (issue 37): either may be absent; with both, the start is on or before the
 * due day (the same day is a one-day task). The database's check says the same. Returns the start date.
 */
export function validateStartDate(
  startDate: string | null,
  dueDate: string | null,
): { ok: true; value: string | null } | { ok: false; reason: DateRuleReason } {
  if (startDate === null || dueDate === null || startDate <= dueDate) return { ok: true, value: startDate };
  return { ok: false, reason: 'start_after_due' };
}

export interface DeadlineLabel {
  /** 'Overdue', 'Today', 'Tomorrow', a weekday name within the current week, else 'MMM dd'. */
  label: string;
  /** Shown highlighted. */
  isOverdue: boolean;
}

/** The label of a due date seen on `today` (spec §9 'Deadline labels'). */
export function deadlineLabel(dueDate: string, today: string): DeadlineLabel {
  if (isOverdue(dueDate, today)) return { label: MSG.overdue, isOverdue: true };
  const ahead = daysBetween(today, dueDate);
  if (ahead === 0) return { label: 'Today', isOverdue: false };
  if (ahead === 1) return { label: 'Tomorrow', isOverdue: false };
  if (startOfWeek(dueDate) === startOfWeek(today)) return { label: weekdayName(dueDate), isOverdue: false };
  return { label: formatShortDate(dueDate), isOverdue: false };
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;

/**
 * 'Just now' under a minute (or for a moment slightly in the future, from clock skew), then whole
 * minutes, hours under 24, days under 7, then the date: 'MMM dd', with the year when it is not
 * the current one (spec §9 'Relative time').
 */
export function relativeTime(at: Date, now: Date): string {
  const elapsed = now.getTime() - at.getTime();
  if (elapsed < MINUTE_MS) return 'Just now';
  if (elapsed < HOUR_MS) return plural(Math.floor(elapsed / MINUTE_MS), 'minute');
  if (elapsed < 24 * HOUR_MS) return plural(Math.floor(elapsed / HOUR_MS), 'hour');
  if (elapsed < 7 * DAY_MS) return plural(Math.floor(elapsed / DAY_MS), 'day');
  const date = localIsoDate(at);
  return at.getFullYear() === now.getFullYear() ? formatShortDate(date) : formatLongDate(date);
}
