/*
 * How the board's first page reaches the screen (a cold load of /tasks, or ?project=<id>):
 *
 * 1. Entry: app/router.tsx, while the module loads and before React renders, calls `primeBoard()`
 *    with the stored session. With a token valid for 30 s more and no filter but the project, it
 *    starts one GET /api/tasks/board (first page of every column) beside the session check and the
 *    page's chunks, and keeps the promise here (then its answer), tagged with the filters' board key
 *    and the access token, for 15 s.
 * 2. Shape and columns: the board's shape (its columns: `order`, `columnKind`, `workflows`) is one
 *    query (`useBoardShape`, key `taskKeys.board(filters)`); each column of task-board.tsx is one
 *    TanStack infinite query (`useTaskColumn`, key `taskKeys.column(filters, column)`). On their first
 *    render, a board that has already arrived becomes the queries' `initialData` (`takeArrivedBoard`):
 *    cards in the first paint. Otherwise they go to the board loader (board-loader.ts), which takes the
 *    request still in flight (`takePrimedBoard`) or else coalesces the queries asking in the same tick
 *    into one board request; the shape's answer also seeds the first page of each column not loaded yet.
 * 3. Cache: the loader cuts the board into one page per column (`columnPage`, shaped like a
 *    GET /api/tasks page), which TanStack Query keeps under the column keys. 'Show more' fetches later
 *    pages from /api/tasks; refetches (realtime, a write's `invalidateTasks`) go through the loader again.
 *
 * The early board is taken at most once per column, never by another session, and dropped by any task
 * write, so it cannot overwrite fresher data.
 */
import type { QueryClient } from '@tanstack/react-query';
import { LIMITS } from '../../../../domain/constants';
import { api } from '../../../lib/api-client';
import { useAuthStore } from '../../../stores/auth-store';
import { type BoardAnswer, type BoardFilters, boardKey } from './board-loader';
import { taskKeys } from './task-keys';

/** A task or project id as the URL carries it. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const fetchBoard = (filters: BoardFilters) =>
  api.get<BoardAnswer>('/api/tasks/board', { query: { ...filters, limit: LIMITS.boardFirstPage }, revalidate: true });

/** A board request started before the page rendered (and its answer once it is in); each column may take it once. */
let primed: {
  key: string;
  result: Promise<BoardAnswer>;
  arrived?: { board: BoardAnswer; at: number };
  /** The session it was asked for: another session (a sign-out, a refresh) does not take it. */
  token: string | undefined;
  takers: Set<string>;
  until: number;
} | null = null;

/**
 * A cold load of /tasks: start the board request from the entry script, beside the session check
 * and the page's chunks, instead of after the first render (the last link of the load chain).
 * Only for the plain board (no filters but the project; swimlanes or not), with a stored token that is still valid;
 * otherwise the columns ask as usual. A failed request is dropped: the columns then ask again.
 */
export function primeBoard(location: Pick<Location, 'pathname' | 'search'>, accessTokenExpiresAt: number | undefined) {
  if (location.pathname.replace(/\/+$/, '') !== '/tasks') return;
  if (!accessTokenExpiresAt || accessTokenExpiresAt * 1000 < Date.now() + 30_000) return;
  const params = new URLSearchParams(location.search);
  const project = params.get('project');
  // Swimlanes group the same board answer: `groupBy` does not change the request.
  if ([...params.keys()].some((k) => k !== 'project' && k !== 'groupBy')) return;
  if (project !== null && !UUID.test(project)) return;
  const filters: BoardFilters = project ? { projectId: project } : {};
  const result = fetchBoard(filters);
  const entry: NonNullable<typeof primed> = {
    key: boardKey(filters),
    result,
    token: useAuthStore.getState().session?.access_token,
    takers: new Set<string>(),
    until: Date.now() + 15_000,
  };
  primed = entry;
  result.then(
    (board) => {
      entry.arrived = { board, at: Date.now() };
    },
    () => {
      if (primed === entry) primed = null;
    },
  );
}

/** Takes the primed board for this taker (a column, or the shape) if it is for these filters and this session, not yet taken by it, and fresh. */
function take(key: string, column: string) {
  if (!primed || primed.key !== key || primed.takers.has(column) || Date.now() > primed.until) return null;
  if (primed.token !== useAuthStore.getState().session?.access_token) return null;
  primed.takers.add(column);
  return primed;
}

/** The primed board for these filters, once per column, while it is fresh. */
export function takePrimedBoard(key: string, column: string): Promise<BoardAnswer> | null {
  return take(key, column)?.result ?? null;
}

/**
 * The primed board if its answer is already in, once per column: the column then draws its cards in its first
 * render, instead of a skeleton first and the cards a task later.
 */
export function takeArrivedBoard(key: string, column: string): { board: BoardAnswer; at: number } | null {
  if (!primed?.arrived) return null;
  return take(key, column)?.arrived ?? null;
}

/**
 * A task was written: every cached task query is stale, and so is an early board that a column has not taken
 * yet. What each task write calls when it settles.
 */
export function invalidateTasks(qc: QueryClient): Promise<void> {
  primed = null;
  return qc.invalidateQueries({ queryKey: taskKeys.all });
}
