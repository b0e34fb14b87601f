import { and, count, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { recoveryCodes, sessions, users } from '../../db/schema';

/** The user's sessions not revoked, latest activity first, and the database's clock (which stamped their times). */
export async function listLiveByUserId(db: DbOrTx, userId: string) {
  return db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
      createdAt: sessions.createdAt,
      refreshedAt: sessions.refreshedAt,
      now: sql<Date>`now()`.mapWith(sessions.createdAt),
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .orderBy(desc(sql`coalesce(${sessions.refreshedAt}, ${sessions.createdAt})`), desc(sessions.createdAt));
}

/** Revokes one live session of the user; false when there is none by that id (another user's, or already ended). */
export async function revokeOneOfUser(db: DbOrTx, userId: string, sessionId: string): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Keeps a new (sealed) secret while two-factor sign-in is off; false once it is on (it cannot be swapped then). */
export async function setPendingSecret(db: DbOrTx, userId: string, sealedSecret: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpSecret: sealedSecret, updatedAt: sql`now()` })
    .where(and(eq(users.id, userId), isNull(users.totpEnabledAt)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Turns two-factor sign-in on with the secret that was confirmed; false when it changed meanwhile or is on already. */
export async function enableOne(db: DbOrTx, userId: string, sealedSecret: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpEnabledAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(users.id, userId), eq(users.totpSecret, sealedSecret), isNull(users.totpEnabledAt)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Turns two-factor sign-in off; false when it was not on. */
export async function disableOne(db: DbOrTx, userId: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpSecret: null, totpEnabledAt: null, updatedAt: sql`now()` })
    .where(and(eq(users.id, userId), isNotNull(users.totpEnabledAt)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Locks the user's row for the transaction when two-factor sign-in is on; false when it is off (or went off). */
export async function lockEnabled(db: DbOrTx, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), isNotNull(users.totpEnabledAt)))
    .for('update');
  return rows.length > 0;
}

/** Replaces the user's recovery codes with these hashes. */
export async function replaceRecoveryCodes(db: DbOrTx, userId: string, codeHashes: string[]): Promise<void> {
  await deleteRecoveryCodes(db, userId);
  if (codeHashes.length) await db.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
}

export async function deleteRecoveryCodes(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

/**
 * Spends an unused recovery code of the user, in one statement: of two parallel uses, the second finds it
 * spent (the row lock makes it re-read `used_at`). True when this call spent it.
 */
export async function spendRecoveryCode(db: DbOrTx, userId: string, codeHash: string): Promise<boolean> {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return rows.length > 0;
}

export async function countUnusedRecoveryCodes(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}
