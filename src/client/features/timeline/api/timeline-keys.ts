import { rootKey } from '../../../lib/query-keys';

/** What the timeline asks for: the drawn days and one scope (a project, else a team, else everything visible). */
export interface TimelineScope {
  from: string;
  to: string;
  teamId?: string;
  projectId?: string;
}

/**
 * The timeline's keys start with the 'tasks' root, so that every task event (realtime.ts: another person's change) and
 * every task write elsewhere refreshes the chart as it does the board and the calendar.
 */
export const timelineKeys = {
  all: () => [...rootKey('tasks'), 'timeline'] as const,
  window: (scope: TimelineScope) => [...timelineKeys.all(), scope] as const,
};
