import { toCsv } from '../../../domain/csv';
import { canManageMembers } from '../../../domain/permissions';
import {
  AUDIT_CSV_HEADER,
  AUDIT_CSV_MAX_ROWS,
  AUDIT_PAGE,
  type AuditEntryDto,
  type AuditPageDto,
  type AuditQuery,
  auditCsvRecord,
} from '../../../domain/schemas/audit';
import type { Db } from '../../db/client';
import { requireTeamRight } from '../../db/membership';
import * as repo from './audit.repo';

function toDto(row: repo.AuditRow): AuditEntryDto {
  return {
    id: String(row.id),
    createdAt: row.createdAt.toISOString(),
    action: row.action,
    actorId: row.actorId,
    actorEmail: row.actorEmail,
    ip: row.ip,
    teamId: row.teamId,
    targetType: row.targetType,
    targetId: row.targetId,
    targetLabel: row.targetLabel,
    details: (row.details ?? {}) as Record<string, unknown>,
  };
}

/** How many rows the CSV reads per query, walking the keyset like the pages do. */
const CSV_CHUNK = 1000;

/**
 * Reading the audit log (issue 26): super admins all of it (the route's `super_admin` auth), a team's owner and admins
 * the rows of their team (a stranger 404, a member 403 `audit_denied`). Nothing here writes: there is no route that
 * changes the log, and the database refuses an UPDATE (migration 0009's trigger).
 */
export class AuditService {
  constructor(private readonly db: Db) {}

  async page(query: AuditQuery, teamId?: string): Promise<AuditPageDto> {
    const limit = query.limit ?? AUDIT_PAGE.default;
    // One more than asked: whether a next page exists, without a count.
    const rows = await repo.listPage(this.db, { ...query, teamId }, limit + 1);
    const entries = rows.slice(0, limit).map(toDto);
    return { entries, nextCursor: rows.length > limit ? (entries.at(-1)?.id ?? null) : null };
  }

  async csv(query: AuditQuery, teamId?: string): Promise<string> {
    const records: (string | null)[][] = [];
    let before = query.before;
    while (records.length < AUDIT_CSV_MAX_ROWS) {
      const rows = await repo.listPage(this.db, { ...query, before, teamId }, CSV_CHUNK);
      for (const row of rows) records.push(auditCsvRecord(toDto(row)));
      if (rows.length < CSV_CHUNK) break;
      before = String(rows.at(-1)!.id);
    }
    return toCsv(AUDIT_CSV_HEADER, records.slice(0, AUDIT_CSV_MAX_ROWS));
  }

  /** The team's owner or an admin: else 404 for a stranger, 403 `audit_denied` for a member. */
  async requireTeamAuditor(teamId: string, userId: string): Promise<void> {
    await requireTeamRight(this.db, teamId, userId, canManageMembers, 'audit_denied');
  }
}
