import { rootKey } from '../../../lib/query-keys';

/** What the calendar asks the task list for: the shown days and the team and project filters. */
export interface CalendarQuery {
  from: string;
  to: string;
  teamId?: string;
  projectId?: string;
}

/**
 * The calendar's keys start with the 'tasks' root, so that every task event (realtime.ts) and every task write
 * (invalidateTasks) refreshes the calendar as it does the board.
 */
export const calendarKeys = {
  all: () => [...rootKey('tasks'), 'calendar'] as const,
  range: (q: CalendarQuery) => [...calendarKeys.all(), q] as const,
  /**
   * The repeating tasks' future dates in the shown days (issue 39): beside `all()`, not under it, because the moves
   * rewrite every list under it as tasks; under the 'tasks' root, because a task's change can move them.
   */
  occurrences: (q: CalendarQuery) => [...rootKey('tasks'), 'occurrences', q] as const,
};
