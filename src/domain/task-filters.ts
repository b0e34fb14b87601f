/**
 * Due-date buckets of the task filters (spec §2 'Filter panel', applied as DESIGN.md §2 decides).
 * Pure: given the caller's local calendar date, each bucket is an inclusive range of due dates.
 * Weeks run Sunday to Saturday, as date-fns does by default.
 */
import type { DueFilter } from './schemas/task';

export interface DueRange {
  /** Inclusive lower bound (YYYY-MM-DD), or null for open. */
  from: string | null;
  /** Inclusive upper bound (YYYY-MM-DD), or null for open. */
  to: string | null;
  /** Overdue leaves completed tasks out. */
  excludeCompleted: boolean;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function parse(date: string): Date {
  const m = ISO_DATE.exec(date);
  if (!m) throw new RangeError(`not a YYYY-MM-DD date: ${date}`);
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== date) throw new RangeError(`invalid date: ${date}`);
  return d;
}

const format = (d: Date) => d.toISOString().slice(0, 10);

/** `date` plus `days` calendar days (negative to go back). */
export function addDays(date: string, days: number): string {
  const d = parse(date);
  d.setUTCDate(d.getUTCDate() + days);
  return format(d);
}

/** The Sunday that starts the week holding `date`. */
export function startOfWeek(date: string): string {
  return addDays(date, -parse(date).getUTCDay());
}

/** The calendar date of a moment in the viewer's own time zone, as YYYY-MM-DD. */
export function localDate(moment: Date): string {
  const y = moment.getFullYear();
  const m = String(moment.getMonth() + 1).padStart(2, '0');
  const d = String(moment.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

export function dueRange(filter: DueFilter, today: string): DueRange {
  switch (filter) {
    case 'overdue':
      return { from: null, to: addDays(today, -1), excludeCompleted: true };
    case 'today':
      return { from: today, to: today, excludeCompleted: false };
    case 'this_week': {
      const start = startOfWeek(today);
      return { from: start, to: addDays(start, 6), excludeCompleted: false };
    }
    case 'next_week': {
      const start = addDays(startOfWeek(today), 7);
      return { from: start, to: addDays(start, 6), excludeCompleted: false };
    }
  }
}

/** Whether a task falls in a bucket (the same rule the server applies in SQL). */
export function matchesDueFilter(
  task: { dueDate: string | null; status: string },
  filter: DueFilter,
  today: string,
): boolean {
  if (!task.dueDate) return false;
  const range = dueRange(filter, today);
  if (range.excludeCompleted && task.status === 'completed') return false;
  if (range.from && task.dueDate < range.from) return false;
  if (range.to && task.dueDate > range.to) return false;
  return true;
}
