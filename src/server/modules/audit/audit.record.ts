import type { AuditAction } from '../../../domain/constants';
import type { DbOrTx } from '../../db/client';
import { auditLog } from '../../db/schema';

/** One security-relevant action (issue 26). Names are copied: the row outlives the user, team or object it names. */
export interface AuditEntry {
  action: AuditAction;
  /** Who did it; null: nobody signed in (a failed sign-in) or the CLI. */
  actorId: string | null;
  actorEmail?: string | null;
  /** The caller's address (`req.ip`: the proxy rules of TRUST_PROXY already applied). */
  ip?: string | null;
  /** The team it concerns; null for account- and system-level actions. */
  teamId?: string | null;
  targetType?: string | null;
  targetId?: string | null;
  targetLabel?: string | null;
  details?: Record<string, unknown>;
}

/**
 * Appends one row to the audit log. Pass the transaction of the change it records, so that the row exists exactly when
 * the change does (a failed sign-in, which changes nothing, passes the database).
 */
export async function recordAudit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    action: entry.action,
    actorId: entry.actorId,
    actorEmail: entry.actorEmail ?? null,
    ip: entry.ip ?? null,
    teamId: entry.teamId ?? null,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    targetLabel: entry.targetLabel ?? null,
    details: entry.details ?? {},
  });
}

/** An audit row's actor and target when the account's owner acts on their own account (from `ip`). */
export const ownAccountAudit = (user: { id: string; email: string }, ip: string | null) => ({
  actorId: user.id,
  actorEmail: user.email,
  ip,
  targetType: 'user',
  targetId: user.id,
  targetLabel: user.email,
});

/** Who acts and from where: the signed-in caller (or nobody) and the request's address. */
export interface AuditBy {
  actorId: string | null;
  actorEmail: string | null;
  ip: string | null;
}

/** The CLI acts as nobody in particular, from no address (`details.via` says it was the CLI). */
export const AUDIT_BY_CLI: AuditBy = { actorId: null, actorEmail: null, ip: null };

/** A request's AuditBy: its signed-in user (route auth 'user' or 'super_admin'), else nobody, and `req.ip`. */
export function auditByOf(req: { auth: { user: { id: string; email: string } } | null; ip: string }): AuditBy {
  return { actorId: req.auth?.user.id ?? null, actorEmail: req.auth?.user.email ?? null, ip: req.ip };
}
