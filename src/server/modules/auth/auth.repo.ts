import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { SignInMethod } from '../../../domain/constants';
import type { Db, DbOrTx } from '../../db/client';
import { refreshTokens, sessions, users } from '../../db/schema';
import { requiresSsoSomewhere } from '../../db/sso-lock';

export async function createSession(
  db: DbOrTx,
  userId: string,
  userAgent: string | null,
  ip: string | null = null,
  method: SignInMethod = 'password',
) {
  const [row] = await db.insert(sessions).values({ userId, userAgent, ip, method }).returning();
  return row!;
}

export async function insertRefreshToken(db: DbOrTx, sessionId: string, tokenHash: string, parentId: number | null) {
  const [row] = await db.insert(refreshTokens).values({ sessionId, tokenHash, parentId }).returning();
  return row!;
}

export async function getRefreshTokenByHash(db: DbOrTx, tokenHash: string) {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash));
  return row;
}

/** Marks the token spent if it was not; returns it only to the caller that spent it. */
export async function spendRefreshToken(db: DbOrTx, id: number) {
  const [row] = await db
    .update(refreshTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.usedAt)))
    .returning();
  return row;
}

export async function getChildToken(db: DbOrTx, parentId: number) {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.parentId, parentId));
  return row;
}

/** The session, its user, and the database's clock (the one that stamped the session's times). */
export async function getSessionWithUser(db: DbOrTx, sessionId: string) {
  const [row] = await db
    .select({ session: sessions, user: users, now: sql<Date>`now()`.mapWith(sessions.createdAt) })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, sessionId));
  return row;
}

/**
 * getSessionWithUser as a prepared statement on `db` (not usable inside a transaction): built once,
 * and planned once per connection by PostgreSQL. It runs on every authenticated request.
 */
export function prepareSessionWithUser(db: Db) {
  const statement = db
    // ssoTeams: is the user in a team that requires SSO (a session not from SAML is then locked out of it, issue 41)?
    .select({ session: sessions, user: users, ssoTeams: requiresSsoSomewhere(users.id) })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, sql.placeholder('sessionId')))
    .prepare('auth_session_with_user');
  return async (sessionId: string) => (await statement.execute({ sessionId }))[0];
}

export async function revokeSession(db: DbOrTx, sessionId: string) {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

export async function revokeAllSessionsOfUser(db: DbOrTx, userId: string) {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

/** Revokes every live session of the user but `keepSessionId` (the caller's own); returns the ids it revoked. */
export async function revokeOtherSessionsOfUser(db: DbOrTx, userId: string, keepSessionId: string): Promise<string[]> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), ne(sessions.id, keepSessionId)))
    .returning({ id: sessions.id });
  return rows.map((r) => r.id);
}

export async function markSessionRefreshed(db: DbOrTx, sessionId: string) {
  await db.update(sessions).set({ refreshedAt: sql`now()` }).where(eq(sessions.id, sessionId));
}
