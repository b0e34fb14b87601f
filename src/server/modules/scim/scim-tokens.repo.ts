import { and, count, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { lockFor } from '../../db/locks';
import { scimTokens, type UserRow, users } from '../../db/schema';

export type ScimTokenRow = typeof scimTokens.$inferSelect;
export type ScimTokenWithCreator = ScimTokenRow & { creator: Pick<UserRow, 'id' | 'email' | 'fullName'> };

const creator = { id: users.id, email: users.email, fullName: users.fullName };

/** Every SCIM token not revoked, newest first, with the super admin who created it. */
export async function listLive(db: DbOrTx): Promise<ScimTokenWithCreator[]> {
  const rows = await db
    .select({ token: scimTokens, creator })
    .from(scimTokens)
    .innerJoin(users, eq(users.id, scimTokens.createdBy))
    .where(isNull(scimTokens.revokedAt))
    .orderBy(desc(scimTokens.createdAt), desc(scimTokens.id));
  return rows.map((r) => ({ ...r.token, creator: r.creator }));
}

/** Live tokens of the whole instance, counted under a lock held to the end of the transaction (two creations race). */
export async function countLiveLocked(db: DbOrTx): Promise<number> {
  await lockFor(db, 'api_tokens', 'scim');
  const [row] = await db.select({ n: count() }).from(scimTokens).where(isNull(scimTokens.revokedAt));
  return Number(row?.n ?? 0);
}

export async function createOne(
  db: DbOrTx,
  values: { name: string; tokenHash: string; prefix: string; createdBy: string },
): Promise<ScimTokenRow> {
  const [row] = await db.insert(scimTokens).values(values).returning();
  return row!;
}

/** Revokes a live token (unknown or already revoked: undefined). */
export async function revokeOne(db: DbOrTx, id: string): Promise<ScimTokenRow | undefined> {
  const [row] = await db
    .update(scimTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(scimTokens.id, id), isNull(scimTokens.revokedAt)))
    .returning();
  return row;
}

/**
 * The live token with this hash and its creator, only while the creator is an active super admin: a token acts as the
 * person who made it, so it stops with their account or their role.
 */
export async function getLiveByHash(db: DbOrTx, tokenHash: string): Promise<{ id: string; creator: UserRow } | undefined> {
  const [row] = await db
    .select({ id: scimTokens.id, creator: users })
    .from(scimTokens)
    .innerJoin(users, eq(users.id, scimTokens.createdBy))
    .where(
      and(
        eq(scimTokens.tokenHash, tokenHash),
        isNull(scimTokens.revokedAt),
        eq(users.isActive, true),
        eq(users.role, 'super_admin'),
      ),
    );
  return row;
}

/** Marks the token used, unless it was within `minSeconds`. */
export async function touchLastUsed(db: DbOrTx, id: string, minSeconds: number): Promise<void> {
  await db
    .update(scimTokens)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(scimTokens.id, id),
        or(isNull(scimTokens.lastUsedAt), lt(scimTokens.lastUsedAt, sql`now() - make_interval(secs => ${minSeconds})`)),
      ),
    );
}
