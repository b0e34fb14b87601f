import { and, count, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { ApiTokenScope } from '../../../domain/constants';
import type { DbOrTx } from '../../db/client';
import { lockFor } from '../../db/locks';
import { apiTokens, type UserRow, users } from '../../db/schema';

export type ApiTokenRow = typeof apiTokens.$inferSelect;

/** Neither revoked nor expired. */
const live = () => and(isNull(apiTokens.revokedAt), or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, sql`now()`)));

/** The user's tokens that are not revoked (expired ones too, so the list says they expired), newest first. */
export async function listByUserId(db: DbOrTx, userId: string): Promise<ApiTokenRow[]> {
  return db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
}

/**
 * How many live tokens `userId` has, counted under a lock of theirs held to the end of the transaction, so that two
 * concurrent creations cannot both pass the limit.
 */
export async function countLiveLocked(db: DbOrTx, userId: string): Promise<number> {
  await lockFor(db, 'api_tokens', userId);
  const [row] = await db
    .select({ n: count() })
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), live()));
  return Number(row?.n ?? 0);
}

export async function createOne(
  db: DbOrTx,
  values: { userId: string; name: string; tokenHash: string; prefix: string; scope: ApiTokenScope; expiresInDays: number | null },
): Promise<ApiTokenRow> {
  const { expiresInDays, ...rest } = values;
  const [row] = await db
    .insert(apiTokens)
    .values({
      ...rest,
      // The database's clock, as every check of the expiry uses it.
      expiresAt: expiresInDays === null ? null : sql`now() + make_interval(days => ${expiresInDays})`,
    })
    .returning();
  return row!;
}

/** Revokes the user's token `id` (someone else's, or one already revoked: undefined). */
export async function revokeOneOfUser(db: DbOrTx, userId: string, id: string): Promise<ApiTokenRow | undefined> {
  const [row] = await db
    .update(apiTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .returning();
  return row;
}

/** Revokes every token of the user not revoked yet (expired ones too); returns them. */
export async function revokeAllOfUser(db: DbOrTx, userId: string): Promise<ApiTokenRow[]> {
  return db
    .update(apiTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .returning();
}

/** The live token with this hash, with its owner if the owner's account is active. One lookup by a unique index. */
export async function getLiveByHash(
  db: DbOrTx,
  tokenHash: string,
): Promise<{ id: string; scope: ApiTokenScope; user: UserRow } | undefined> {
  const [row] = await db
    .select({ id: apiTokens.id, scope: apiTokens.scope, user: users })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(and(eq(apiTokens.tokenHash, tokenHash), live(), eq(users.isActive, true)));
  return row;
}

/** Marks the token used, unless it was within `minSeconds` (also across instances: the check is in the database). */
export async function touchLastUsed(db: DbOrTx, id: string, minSeconds: number): Promise<void> {
  await db
    .update(apiTokens)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(apiTokens.id, id),
        or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, sql`now() - make_interval(secs => ${minSeconds})`)),
      ),
    );
}
