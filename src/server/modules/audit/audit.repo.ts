import { and, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { AuditQuery } from '../../../domain/schemas/audit';
import type { DbOrTx } from '../../db/client';
import { auditLog } from '../../db/schema';
import { containsText } from '../../db/search';

export type AuditRow = typeof auditLog.$inferSelect;

export interface AuditFilter extends Omit<AuditQuery, 'limit'> {
  /** Only this team's rows (a team's log); undefined: every row (the super admin's log). */
  teamId?: string;
}

function conditions(filter: AuditFilter): SQL[] {
  const where: SQL[] = [];
  if (filter.teamId) where.push(eq(auditLog.teamId, filter.teamId));
  if (filter.actorId) where.push(eq(auditLog.actorId, filter.actorId));
  if (filter.actor) where.push(containsText(filter.actor, auditLog.actorEmail));
  if (filter.action) where.push(eq(auditLog.action, filter.action));
  if (filter.from) where.push(gte(auditLog.createdAt, new Date(filter.from)));
  if (filter.to) where.push(lt(auditLog.createdAt, new Date(filter.to)));
  if (filter.before) {
    // Keyset: rows older than the cursor's row in (created_at, id) order. A cursor naming no row (of this team's,
    // for a team's log) ends the list.
    const id = sql`${filter.before}::bigint`;
    const sameTeam = filter.teamId ? sql` and a.team_id = ${filter.teamId}` : sql``;
    where.push(
      sql`(${auditLog.createdAt}, ${auditLog.id}) < (select a.created_at, a.id from audit_log a where a.id = ${id}${sameTeam})`,
    );
  }
  return where;
}

/** Rows matching `filter`, newest first (created_at, then id), at most `limit`. */
export async function listPage(db: DbOrTx, filter: AuditFilter, limit: number): Promise<AuditRow[]> {
  return db
    .select()
    .from(auditLog)
    .where(and(...conditions(filter)))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(limit);
}

/**
 * Deletes the rows created before `cutoff`, in one transaction that first allows it: the append-only trigger
 * (migration 0009) lets a delete through only with `crewboard.audit_purge` on, and `set local` ends with the
 * transaction. Returns how many went.
 */
export async function purgeOlderThan(db: DbOrTx, cutoff: Date): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local crewboard.audit_purge = 'on'`);
    const result = await tx.execute(
      sql`with gone as (delete from audit_log where created_at < ${cutoff.toISOString()}::timestamptz returning 1)
          select count(*)::int as n from gone`,
    );
    return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
  });
}
