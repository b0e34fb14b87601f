import { type QueryKey, useInfiniteQuery } from '@tanstack/react-query';
import { AUDIT_PAGE } from '../../../../domain/audit';
import type { AuditPageDto } from '../../../../domain/schemas/audit';
import { api } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download';

/** The filters as the form holds them: an actor's email text, an action, and local calendar dates. */
export interface AuditFilters {
  actor: string;
  action: string;
  /** YYYY-MM-DD (local), inclusive. */
  from: string;
  /** YYYY-MM-DD (local), inclusive: the whole day. */
  to: string;
}

export const emptyAuditFilters: AuditFilters = { actor: '', action: '', from: '', to: '' };

/** The start of a local calendar day as an ISO instant; `nextDay` gives the start of the day after. */
function localDayStart(date: string, nextDay = false): string | undefined {
  const [y, m, d] = date.split('-').map(Number);
  if (!y || !m || !d) return undefined;
  return new Date(y, m - 1, d + (nextDay ? 1 : 0)).toISOString();
}

/** The API's query (`from` inclusive, `to` exclusive) for the form's filters. */
export function auditQueryOf(filters: AuditFilters): Record<string, string | undefined> {
  return {
    actor: filters.actor.trim() || undefined,
    action: filters.action || undefined,
    from: filters.from ? localDayStart(filters.from) : undefined,
    to: filters.to ? localDayStart(filters.to, true) : undefined,
  };
}

/** One page of a log (`path`: /api/admin/audit or /api/teams/:id/audit), older than `before`. */
export const getAuditPage = (path: string, filters: AuditFilters, before: string | null, signal?: AbortSignal) =>
  api.get<AuditPageDto>(path, { query: { ...auditQueryOf(filters), before, limit: AUDIT_PAGE.default }, signal });

/** A log's pages, newest first; 'Load more' fetches the next. `queryKey` is the feature's (its key factory). */
export const useAuditLog = (path: string, filters: AuditFilters, queryKey: QueryKey) =>
  useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) => getAuditPage(path, filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/** Downloads `<path>.csv` with the filters (with the session's bearer token, see downloadFile). */
export async function downloadAuditCsv(path: string, filters: AuditFilters): Promise<void> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(auditQueryOf(filters))) if (v) params.set(k, v);
  await downloadFile(`${path}.csv${params.size ? `?${params}` : ''}`, 'crewboard-audit.csv');
}
