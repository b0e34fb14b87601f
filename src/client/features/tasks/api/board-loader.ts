import type { TaskBoardDto } from '../../../../domain/schemas/task';
import type { TaskPage } from '../../../../domain/task-list';
import type { ColumnRef } from '../board/board-model';

/** The board's query; `cf` (custom field filters) is a list, repeated in the URL. */
export type BoardFilters = Record<string, string | number | string[] | undefined>;

/** The board answer: the columns' first pages by column id, and the board's shape (its columns, their workflows). */
export type BoardAnswer = TaskBoardDto;

/** The key boards are batched by: the filters that are set, in a fixed order. */
export const boardKey = (filters: BoardFilters) => JSON.stringify(filters, Object.keys(filters).sort());

/** Who takes a board answer: a column (`status:todo`, `category:started`), or the board's shape (SHAPE). */
export const SHAPE = 'shape';
export const takerOf = (column: ColumnRef) => `${column.kind}:${column.id}`;

/** A board already on its way for these filters (started before the page rendered), or null. */
export type TakePrimed = (key: string, taker: string) => Promise<BoardAnswer> | null;

/**
 * Coalesces the first pages that the board's columns (and its shape: the columns to draw) ask for in the same moment
 * (a board opening, a refetch after a move) into one board request: one round trip, one auth check and one count
 * query instead of one per column. Each column gets back the page it would have got alone, with `total` being its
 * own count, so paging ('Show more') is unchanged.
 */
export function createBoardLoader(
  fetchBoard: (filters: BoardFilters) => Promise<BoardAnswer>,
  takePrimed: TakePrimed = () => null,
  waitMs = 0,
) {
  const batches = new Map<string, { takers: Map<string, ColumnRef | null>; result: Promise<BoardAnswer> }>();

  const load = (filters: BoardFilters, column: ColumnRef | null): Promise<BoardAnswer> => {
    const key = boardKey(filters);
    const taker = column ? takerOf(column) : SHAPE;
    const primed = takePrimed(key, taker);
    if (primed) return primed;
    let batch = batches.get(key);
    if (!batch) {
      const takers = new Map<string, ColumnRef | null>();
      const result = new Promise<void>((resolve) => setTimeout(resolve, waitMs)).then(() => {
        batches.delete(key);
        // A single column (one column refetching) asks for that column only.
        const only = takers.size === 1 ? [...takers.values()][0] : null;
        return fetchBoard(only ? { ...filters, ...columnFilter(only) } : filters);
      });
      batch = { takers, result };
      batches.set(key, batch);
    }
    batch.takers.set(taker, column);
    return batch.result;
  };

  return {
    /** A column's first page. */
    column: (filters: BoardFilters, column: ColumnRef): Promise<TaskPage> =>
      load(filters, column).then((board) => columnPage(board, column.id)),
    /** The whole answer, for the board's shape (and the first pages of columns not loaded yet). */
    board: (filters: BoardFilters): Promise<BoardAnswer> => load(filters, null),
  };
}

/** The list filter that selects one column's tasks: its status key, or its category. */
export const columnFilter = (column: ColumnRef) => (column.kind === 'status' ? { status: column.id } : { category: column.id });

/** One column of a board answer, shaped like the list endpoint's page for that column (its count is `total`). */
export function columnPage(board: BoardAnswer, id: string): TaskPage {
  const count = board.counts[id] ?? 0;
  return {
    tasks: board.columns[id] ?? [],
    counts: { todo: 0, in_progress: 0, review: 0, completed: 0, [id]: count },
    total: count,
  };
}
