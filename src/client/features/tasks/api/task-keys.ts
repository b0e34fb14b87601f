import type { TaskStatus } from '../../../../domain/constants';
import type { ListTasksQuery } from '../../../../domain/schemas/task';
import { rootKey } from '../../../lib/query-keys';

/** The server-side filters the board and the list share (status is per column on the board). */
export type TaskQueryFilters = Pick<ListTasksQuery, 'projectId' | 'status' | 'priority' | 'assigneeId' | 'due' | 'today' | 'q'>;
export type TaskListSort = Pick<ListTasksQuery, 'sort' | 'dir'>;

/** One query-key factory for the tasks feature; every key starts with 'tasks'. */
export const taskKeys = {
  all: rootKey('tasks'),
  columns: () => [...taskKeys.all, 'column'] as const,
  column: (filters: Omit<TaskQueryFilters, 'status'>, status: TaskStatus) => [...taskKeys.columns(), filters, status] as const,
  lists: () => [...taskKeys.all, 'list'] as const,
  list: (filters: TaskQueryFilters, sort: TaskListSort) => [...taskKeys.lists(), filters, sort] as const,
};
