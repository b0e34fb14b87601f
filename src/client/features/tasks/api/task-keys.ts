import type { TaskStatus } from '../../../../domain/constants';
import type { ListTasksQuery } from '../../../../domain/schemas/task';

/** The server-side filters the board and the list share (status is per column on the board). */
export type TaskQueryFilters = Pick<ListTasksQuery, 'projectId' | 'status' | 'priority' | 'assigneeId' | 'due' | 'today' | 'q'>;
export type TaskListSort = Pick<ListTasksQuery, 'sort' | 'dir'>;

/** One query-key factory for the tasks feature; every key starts with 'tasks'. */
export const taskKeys = {
  all: ['tasks'] as const,
  columns: () => [...taskKeys.all, 'column'] as const,
  column: (filters: Omit<TaskQueryFilters, 'status'>, status: TaskStatus) => [...taskKeys.columns(), filters, status] as const,
  lists: () => [...taskKeys.all, 'list'] as const,
  list: (filters: TaskQueryFilters, sort: TaskListSort) => [...taskKeys.lists(), filters, sort] as const,
  projects: () => [...taskKeys.all, 'projects'] as const,
  teams: () => [...taskKeys.all, 'teams'] as const,
  team: (teamId: string) => [...taskKeys.teams(), teamId] as const,
};
