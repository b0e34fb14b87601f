/**
 * Due-date buckets of the task filters (spec §2 'Filter panel', applied as DESIGN.md §2 decides).
 * Pure: given the caller's local calendar date, each bucket is an inclusive range of due dates.
 * Weeks run Sunday to Saturday, as date-fns does by default.
 */
import { addDays, startOfWeek } from './dates';
import { isClosed, type StatusCategory } from './workflow';
import type { DueFilter } from './schemas/task';

export interface DueRange {
  /** Inclusive lower bound (YYYY-MM-DD), or null for open. */
  from: string | null;
  /** Inclusive upper bound (YYYY-MM-DD), or null for open. */
  to: string | null;
  /** Overdue leaves completed tasks out. */
  excludeCompleted: boolean;
}

// Calendar arithmetic lives in dates.ts; re-exported under the names this module's callers use.
export { addDays, startOfWeek, localIsoDate as localDate } from './dates';

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
  task: { dueDate: string | null; statusCategory: StatusCategory },
  filter: DueFilter,
  today: string,
): boolean {
  if (!task.dueDate) return false;
  const range = dueRange(filter, today);
  if (range.excludeCompleted && isClosed(task.statusCategory)) return false;
  if (range.from && task.dueDate < range.from) return false;
  if (range.to && task.dueDate > range.to) return false;
  return true;
}
