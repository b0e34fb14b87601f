import { type InfiniteData, infiniteQueryOptions, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { LIMITS, type TaskStatus } from '../../../../domain/constants';
import type { TaskDto, TaskListDto } from '../../../../domain/schemas/task';
import { api } from '../../../lib/api-client';
import { boardKey, columnPage, createBoardLoader } from './board-loader';
import { fetchBoard, takeArrivedBoard, takePrimedBoard } from './prefetch-board';
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
        : getTasks({ ...filters, status, limit: LIMITS.boardMorePage, offset: pageParam }, signal),
    initialPageParam: 0,
    getNextPageParam: nextOffset,
  });

/** A column's first page from the board the entry script asked for, if it has arrived (see prefetch-board). */
function arrivedColumn(filters: Omit<TaskQueryFilters, 'status'>, status: TaskStatus) {
  const arrived = takeArrivedBoard(boardKey(filters), status);
  return arrived ? { page: { pages: [columnPage(arrived.board, status)], pageParams: [0] }, at: arrived.at } : undefined;
}

export function useTaskColumn(filters: Omit<TaskQueryFilters, 'status'>, status: TaskStatus, enabled: boolean) {
  const queryClient = useQueryClient();
  const options = taskColumnOptions(filters, status);
  // Read when the column's query is created (its first render); not again once it has data.
  const arrived = enabled && !queryClient.getQueryState(options.queryKey) ? arrivedColumn(filters, status) : undefined;
  return useInfiniteQuery({ ...options, enabled, initialData: arrived?.page, initialDataUpdatedAt: arrived?.at });
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
