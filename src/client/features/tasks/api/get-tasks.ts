import { type InfiniteData, infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { TaskStatus } from '../../../../domain/constants';
import type { TaskDto, TaskListDto } from '../../../../domain/schemas/task';
import { api } from '../../../lib/api-client';
import { createBoardLoader } from './board-loader';
import { COLUMN_PAGE_SIZE, fetchBoard, takePrimedBoard } from './prefetch-board';
import { type TaskListSort, type TaskQueryFilters, taskKeys } from './task-keys';

export const LIST_PAGE_SIZE = 100;

export type TaskPages = InfiniteData<TaskListDto>;

export const getTasks = (query: TaskQueryFilters & TaskListSort & { limit?: number; offset?: number }, signal?: AbortSignal) =>
  api.get<TaskListDto>('/api/tasks', { query, signal });

const nextOffset = (last: TaskListDto, pages: TaskListDto[]) => {
  const loaded = pages.reduce((n, p) => n + p.tasks.length, 0);
  return loaded < last.total && last.tasks.length > 0 ? loaded : undefined;
};

/** The columns' first pages, one board request for all of them. */
const loadFirstPage = createBoardLoader(fetchBoard, takePrimedBoard);

/** One board column: the newest tasks of one status, a page at a time. */
export const taskColumnOptions = (filters: Omit<TaskQueryFilters, 'status'>, status: TaskStatus) =>
  infiniteQueryOptions({
    queryKey: taskKeys.column(filters, status),
    queryFn: ({ pageParam, signal }) =>
      pageParam === 0
        ? loadFirstPage(filters, status)
        : getTasks({ ...filters, status, limit: COLUMN_PAGE_SIZE, offset: pageParam }, signal),
    initialPageParam: 0,
    getNextPageParam: nextOffset,
  });

export function useTaskColumn(filters: Omit<TaskQueryFilters, 'status'>, status: TaskStatus, enabled: boolean) {
  return useInfiniteQuery({ ...taskColumnOptions(filters, status), enabled });
}

export const taskListOptions = (filters: TaskQueryFilters, sort: TaskListSort) =>
  infiniteQueryOptions({
    queryKey: taskKeys.list(filters, sort),
    queryFn: ({ pageParam, signal }) => getTasks({ ...filters, ...sort, limit: LIST_PAGE_SIZE, offset: pageParam }, signal),
    initialPageParam: 0,
    getNextPageParam: nextOffset,
  });

export function useTaskList(filters: TaskQueryFilters, sort: TaskListSort, enabled = true) {
  return useInfiniteQuery({ ...taskListOptions(filters, sort), enabled });
}

/** The loaded tasks of an infinite query, without duplicates (pages may overlap after a move). */
export function flattenPages(data: TaskPages | undefined): TaskDto[] {
  if (!data) return [];
  const seen = new Set<string>();
  const out: TaskDto[] = [];
  for (const page of data.pages) {
    for (const t of page.tasks) {
      if (!seen.has(t.id)) {
        seen.add(t.id);
        out.push(t);
      }
    }
  }
  return out;
}
