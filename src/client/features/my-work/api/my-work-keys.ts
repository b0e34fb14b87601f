import { rootKey } from '../../../lib/query-keys';

/** Whose open tasks: assigned to a person, or created by them ('Created by me'). */
export interface MyWorkFilter {
  assigneeId?: string;
  creatorId?: string;
}

/**
 * My work's query keys. Under the tasks' root: a change to any task (the board's moves, realtime events) refreshes
 * My work too, and a status changed here refreshes the board.
 */
export const myWorkKeys = {
  all: [...rootKey('tasks'), 'my-work'] as const,
  list: (filter: MyWorkFilter) => [...myWorkKeys.all, filter] as const,
};
