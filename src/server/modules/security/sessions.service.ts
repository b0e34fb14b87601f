import { userActor } from '../../../domain/changes';
import type { SessionListDto } from '../../../domain/schemas/security';
import { deviceLabel } from '../../../domain/user-agent';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { AuditBy } from '../audit';
import { type AuthService, sessionExpiry, type SessionPolicy } from '../auth';
import * as repo from './security.repo';

/** Settings → Security: the caller's own sessions, listed and signed out. */
export class SessionsService {
  constructor(
    private readonly db: Db,
    private readonly policy: SessionPolicy,
    /** Told of each revocation, so that the session's event streams close (as at a sign-out). */
    private readonly auth: AuthService,
  ) {}

  /** The live sessions: not revoked and not past their idle or absolute end (the caller's own is always shown). */
  async list(userId: string, currentSessionId: string): Promise<SessionListDto> {
    const rows = await repo.listLiveByUserId(this.db, userId);
    return {
      sessions: rows
        .filter((row) => row.id === currentSessionId || !sessionExpiry(row, row.now, this.policy))
        .map((row) => ({
          id: row.id,
          device: deviceLabel(row.userAgent),
          ip: row.ip,
          createdAt: row.createdAt.toISOString(),
          lastSeenAt: (row.refreshedAt ?? row.createdAt).toISOString(),
          current: row.id === currentSessionId,
        })),
    };
  }

  /** Signs one of the caller's sessions out (the current one too: a sign-out). Another user's id is not found. */
  async revoke(userId: string, sessionId: string): Promise<void> {
    if (!(await repo.revokeOneOfUser(this.db, userId, sessionId))) throw new AppError('session_not_found');
    await this.auth.sessionsRevoked(userId, [sessionId]);
  }

  /**
   * Signs out every session of the caller but the current one; returns how many. With `revokeTokens`, every API token
   * and the calendar feed of the caller are revoked too, in the same transaction (each token with its audit row).
   */
  async revokeOthers(userId: string, currentSessionId: string, revokeTokens = false, by?: AuditBy): Promise<number> {
    return this.auth.signOutOthers(userActor(userId, by?.actorEmail ?? null, by?.ip ?? null), currentSessionId, revokeTokens);
  }
}
