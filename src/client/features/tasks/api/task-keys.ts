import type { ListTasksQuery } from '../../../../domain/schemas/task';
import { rootKey } from '../../../lib/query-keys';
import type { ColumnRef } from '../board/board-model';

/** The server-side filters the board and the list share (status is per column on the board). */
export type TaskQueryFilters = Pick<
  ListTasksQuery,
  'projectId' | 'status' | 'category' | 'priority' | 'assigneeId' | 'due' | 'start' | 'subtasks' | 'today' | 'q' | 'cf'
>;
export type TaskListSort = Pick<ListTasksQuery, 'sort' | 'dir'>;

/** One query-key factory for the tasks feature; every key starts with 'tasks'. */
export const taskKeys = {
  all: rootKey('tasks'),
  columns: () => [...taskKeys.all, 'column'] as const,
  /** A column's pages: `filters` are the board's (its status or category filter included), then the column. */
  column: (filters: TaskQueryFilters, column: ColumnRef) => [...taskKeys.columns(), filters, column.kind, column.id] as const,
  /** The board's shape (its columns and the workflows they come from), from the same board answer. */
  board: (filters: TaskQueryFilters) => [...taskKeys.all, 'board', filters] as const,
  lists: () => [...taskKeys.all, 'list'] as const,
  list: (filters: TaskQueryFilters, sort: TaskListSort) => [...taskKeys.lists(), filters, sort] as const,
};
