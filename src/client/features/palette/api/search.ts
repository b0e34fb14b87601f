import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { SEARCH_LIMITS, SearchResultDto } from '../../../../domain/schemas/search';
import { api } from '../../../lib/api-client';

/** The palette's query keys (its own root: realtime never needs to refresh a search as you type). */
export const searchKeys = {
  all: ['search'] as const,
  query: (q: string) => [...searchKeys.all, q] as const,
};

/** Hits per kind: the server's default (typed by it; the schemas module is not imported, it brings zod). */
const PER_KIND: (typeof SEARCH_LIMITS)['perKindDefault'] = 5;

/** GET /api/search: everything the caller may see, best first, grouped by kind. */
export const getSearch = (q: string, signal?: AbortSignal) =>
  api.get<SearchResultDto>('/api/search', { query: { q, limit: PER_KIND }, signal });

/**
 * One entry per typed text. The previous text's answer stays on screen until the new one arrives (no flash of an
 * empty list while typing), and its request is cancelled: the query that loses its last observer aborts its signal.
 */
export const searchQueryOptions = (q: string) =>
  queryOptions({
    queryKey: searchKeys.query(q),
    queryFn: ({ signal }) => getSearch(q, signal),
    placeholderData: keepPreviousData,
    // Results change as others work; a search typed again a minute later asks again.
    staleTime: 15_000,
    gcTime: 60_000,
  });
