import type { TaskBoardDto } from '../../../../domain/schemas/task';
import { api } from '../../../lib/api-client';
import { type BoardFilters, boardKey } from './board-loader';

/** Cards per column on the board's first screen (and each 'Show more' page). */
export const COLUMN_PAGE_SIZE = 50;

/** A task or project id as the URL carries it. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const fetchBoard = (filters: BoardFilters) =>
  api.get<TaskBoardDto>('/api/tasks/board', { query: { ...filters, limit: COLUMN_PAGE_SIZE } });

/** A board request started before the page rendered; each column may take it once. */
let primed: { key: string; result: Promise<TaskBoardDto>; takers: Set<string>; until: number } | null = null;

/**
 * A cold load of /tasks: start the board request from the entry script, beside the session check
 * and the page's chunks, instead of after the first render (the last link of the load chain).
 * Only for the plain board (no filters but the project), with a stored token that is still valid;
 * otherwise the columns ask as usual. A failed request is dropped: the columns then ask again.
 */
export function primeBoard(location: Pick<Location, 'pathname' | 'search'>, accessTokenExpiresAt: number | undefined) {
  if (location.pathname.replace(/\/+$/, '') !== '/tasks') return;
  if (!accessTokenExpiresAt || accessTokenExpiresAt * 1000 < Date.now() + 30_000) return;
  const params = new URLSearchParams(location.search);
  const project = params.get('project');
  if ([...params.keys()].some((k) => k !== 'project')) return;
  if (project !== null && !UUID.test(project)) return;
  const filters: BoardFilters = project ? { projectId: project } : {};
  const result = fetchBoard(filters);
  const entry = { key: boardKey(filters), result, takers: new Set<string>(), until: Date.now() + 15_000 };
  primed = entry;
  result.catch(() => {
    if (primed === entry) primed = null;
  });
}

/** The primed board for these filters, once per column, while it is fresh. */
export function takePrimedBoard(key: string, column: string): Promise<TaskBoardDto> | null {
  if (!primed || primed.key !== key || primed.takers.has(column) || Date.now() > primed.until) return null;
  primed.takers.add(column);
  return primed.result;
}
