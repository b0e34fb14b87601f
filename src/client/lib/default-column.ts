import { isDefaultStatusKey, type TaskStatus } from '../../domain/constants';
import type { StatusCategory } from '../../domain/workflow';

/**
 * The default four's look for a task whose own status is not at hand (the board and the list draw each project's own
 * statuses, decision 0024 step 8; the calendar, notes and the palette, and a list row until its project's statuses
 * load, show this): another key takes its category's first default status; a canceled one has none (null).
 */
const COLUMN_OF_CATEGORY: Record<StatusCategory, TaskStatus | null> = {
  backlog: 'todo',
  unstarted: 'todo',
  started: 'in_progress',
  completed: 'completed',
  canceled: null,
};

/** The default column a task is drawn under on the board: its own key when it is one of the four, else by category. */
export function defaultColumnOf(task: { status: string; statusCategory: StatusCategory }): TaskStatus | null {
  return isDefaultStatusKey(task.status) ? task.status : COLUMN_OF_CATEGORY[task.statusCategory];
}

/** The default status whose look (chip, icon, tint) a task takes in lists: its column, a canceled task Completed's. */
export const defaultLookOf = (task: { status: string; statusCategory: StatusCategory }): TaskStatus =>
  defaultColumnOf(task) ?? 'completed';
