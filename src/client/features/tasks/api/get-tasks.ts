import { type InfiniteData, infiniteQueryOptions, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { LIMITS } from '../../../../domain/constants';
import type { TaskDto } from '../../../../domain/schemas/task';
import type { TaskPage } from '../../../../domain/task-list';
import { getTaskPage } from '../../../lib/queries/tasks';
import type { BoardShape, ColumnRef } from '../board/board-model';
import { type BoardAnswer, boardKey, columnFilter, columnPage, createBoardLoader, SHAPE, takerOf } from './board-loader';
import { fetchBoard, takeArrivedBoard, takePrimedBoard } from './prefetch-board';
import { type TaskListSort, type TaskQueryFilters, taskKeys } from './task-keys';

export const LIST_PAGE_SIZE = 100;

export type TaskPages = InfiniteData<TaskPage>;

export const getTasks = (
  query: Omit<TaskQueryFilters, 'category'> & { category?: string } & TaskListSort & { limit?: number; offset?: number },
  signal?: AbortSignal,
) => getTaskPage(query, signal);

const nextOffset = (last: TaskPage, pages: TaskPage[]) => {
  const loaded = pages.reduce((n, p) => n + p.tasks.length, 0);
  return loaded < last.total && last.tasks.length > 0 ? loaded : undefined;
};

/** The columns' first pages and the board's shape, one board request for all of them. */
const loader = createBoardLoader(fetchBoard, takePrimedBoard);

/** One board column: the newest tasks of one status (or category), a page at a time. */
export const taskColumnOptions = (filters: TaskQueryFilters, column: ColumnRef) =>
  infiniteQueryOptions({
    queryKey: taskKeys.column(filters, column),
    queryFn: ({ pageParam, signal }) =>
      pageParam === 0
        ? loader.column(filters, column)
        : getTasks({ ...filters, ...columnFilter(column), limit: LIMITS.boardMorePage, offset: pageParam }, signal),
    initialPageParam: 0,
    getNextPageParam: nextOffset,
  });

const pagesOf = (board: BoardAnswer, id: string): InfiniteData<TaskPage, number> => ({
  pages: [columnPage(board, id)],
  pageParams: [0],
});

/** A column's first page from the board the entry script asked for, if it has arrived (see prefetch-board). */
function arrivedColumn(filters: TaskQueryFilters, column: ColumnRef) {
  const arrived = takeArrivedBoard(boardKey(filters), takerOf(column));
  return arrived ? { page: pagesOf(arrived.board, column.id), at: arrived.at } : undefined;
}

export function useTaskColumn(filters: TaskQueryFilters, column: ColumnRef, enabled: boolean) {
  const queryClient = useQueryClient();
  const options = taskColumnOptions(filters, column);
  // Read when the column's query is created (its first render); not again once it has data.
  const arrived = enabled && !queryClient.getQueryState(options.queryKey) ? arrivedColumn(filters, column) : undefined;
  return useInfiniteQuery({ ...options, enabled, initialData: arrived?.page, initialDataUpdatedAt: arrived?.at });
}

const shapeOf = ({ columnKind, order, workflows }: BoardAnswer): BoardShape => ({ columnKind, order, workflows });

/**
 * The board's shape: which columns it draws (`order`, `columnKind`) and the workflows they come from. Its answer is
 * the whole board: the first page of each column not loaded yet is kept for it (the columns mount once the shape is
 * known, and then need no request of their own).
 */
export function useBoardShape(filters: TaskQueryFilters, enabled = true) {
  const qc = useQueryClient();
  const queryKey = taskKeys.board(filters);
  const arrived = !enabled || qc.getQueryState(queryKey) ? null : takeArrivedBoard(boardKey(filters), SHAPE);
  return useQuery({
    queryKey,
    queryFn: async () => {
      const board = await loader.board(filters);
      for (const id of board.order) {
        const key = taskKeys.column(filters, { kind: board.columnKind, id });
        if (!qc.getQueryData(key)) qc.setQueryData(key, pagesOf(board, id));
      }
      return shapeOf(board);
    },
    initialData: arrived ? shapeOf(arrived.board) : undefined,
    initialDataUpdatedAt: arrived?.at,
    // Another filter of the same project keeps its columns while the answer comes (no skeleton flash).
    placeholderData: (previous, previousQuery) =>
      (previousQuery?.queryKey[2] as TaskQueryFilters | undefined)?.projectId === filters.projectId ? previous : undefined,
    enabled,
  });
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
