import { TASK_STATUSES, type TaskStatus } from '../../../../domain/constants';
import type { TaskBoardDto, TaskListDto } from '../../../../domain/schemas/task';

export type BoardFilters = Record<string, string | number | undefined>;

/** The key boards are batched by: the filters that are set, in a fixed order. */
export const boardKey = (filters: BoardFilters) => JSON.stringify(filters, Object.keys(filters).sort());

/** A board already on its way for these filters (started before the page rendered), or null. */
export type TakePrimed = (key: string, status: TaskStatus) => Promise<TaskBoardDto> | null;

/**
 * Coalesces the first pages that the board's columns ask for in the same moment (a board opening,
 * a refetch after a move) into one board request: one round trip, one auth check and one count
 * query instead of four. Each column gets back the page it would have got alone, with `total`
 * being its own count, so paging ('Show more') is unchanged.
 */
export function createBoardLoader(
  fetchBoard: (filters: BoardFilters) => Promise<TaskBoardDto>,
  takePrimed: TakePrimed = () => null,
  waitMs = 0,
) {
  const batches = new Map<string, { statuses: Set<TaskStatus>; result: Promise<TaskBoardDto> }>();

  return function loadColumn(filters: BoardFilters, status: TaskStatus): Promise<TaskListDto> {
    const key = boardKey(filters);
    const primed = takePrimed(key, status);
    if (primed) return primed.then((board) => columnPage(board, status));
    let batch = batches.get(key);
    if (!batch) {
      const statuses = new Set<TaskStatus>();
      const result = new Promise<void>((resolve) => setTimeout(resolve, waitMs)).then(() => {
        batches.delete(key);
        // A single column (a status filter, or one column refetching) asks for that column only.
        const only = statuses.size === 1 ? [...statuses][0] : undefined;
        return fetchBoard(only ? { ...filters, status: only } : filters);
      });
      batch = { statuses, result };
      batches.set(key, batch);
    }
    batch.statuses.add(status);
    return batch.result.then((board) => columnPage(board, status));
  };
}

/** One column of a board answer, shaped like the list endpoint's page for that status. */
export function columnPage(board: TaskBoardDto, status: TaskStatus): TaskListDto {
  const counts = Object.fromEntries(TASK_STATUSES.map((s) => [s, s === status ? board.counts[s] : 0])) as TaskListDto['counts'];
  return { tasks: board.columns[status], counts, total: board.counts[status] };
}
