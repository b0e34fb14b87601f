import type { TaskStatus } from '../../domain/constants';
import type { StatusCategory } from '../../domain/workflow';

/**
 * Until the client draws each project's own statuses (decision 0024, step 8), it draws the default four. A task whose
 * status is another key is drawn under its category's first default status; a canceled one has no column on the board
 * (null: left out of it, still in the list).
 */
const COLUMN_OF_CATEGORY: Record<StatusCategory, TaskStatus | null> = {
  backlog: 'todo',
  unstarted: 'todo',
  started: 'in_progress',
  completed: 'completed',
  canceled: null,
};

const isDefaultKey = (key: string): key is TaskStatus =>
  key === 'todo' || key === 'in_progress' || key === 'review' || key === 'completed';

/** The default column a task is drawn under on the board: its own key when it is one of the four, else by category. */
export function defaultColumnOf(task: { status: string; statusCategory: StatusCategory }): TaskStatus | null {
  return isDefaultKey(task.status) ? task.status : COLUMN_OF_CATEGORY[task.statusCategory];
}

/** The default status whose look (chip, icon, tint) a task takes in lists: its column, a canceled task Completed's. */
export const defaultLookOf = (task: { status: string; statusCategory: StatusCategory }): TaskStatus =>
  defaultColumnOf(task) ?? 'completed';
