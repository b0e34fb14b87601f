import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { UserTokenPurpose } from '../../../domain/constants';
import type { DbOrTx } from '../../db/client';
import { userTokens } from '../../db/schema';
import { hashToken } from '../../lib/tokens';

/**
 * One-time emailed links (verification, password reset, email change). The link carries a random token; only its
 * SHA-256 is stored, so a copy of the database opens no link. Each token is single use and expires.
 */
export async function createUserToken(
  db: DbOrTx,
  input: { userId: string; purpose: UserTokenPurpose; email: string; ttlSeconds: number },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(userTokens).values({
    userId: input.userId,
    purpose: input.purpose,
    email: input.email,
    tokenHash: hashToken(token),
    expiresAt: sql`now() + make_interval(secs => ${input.ttlSeconds})`,
  });
  return token;
}

/** The row of this token and purpose while its link works: not spent, not expired. */
export const isOpenToken = (purpose: UserTokenPurpose, token: string) =>
  and(
    eq(userTokens.tokenHash, hashToken(token)),
    eq(userTokens.purpose, purpose),
    isNull(userTokens.usedAt),
    gt(userTokens.expiresAt, sql`now()`),
  );

/**
 * Spends a token of this purpose: marks it used and returns its user and address, or null when it is unknown, spent
 * or expired. One statement, so two concurrent uses of one link cannot both succeed.
 */
export async function consumeUserToken(
  db: DbOrTx,
  purpose: UserTokenPurpose,
  token: string,
): Promise<{ userId: string; email: string } | null> {
  const [row] = await db
    .update(userTokens)
    .set({ usedAt: sql`now()` })
    .where(isOpenToken(purpose, token))
    .returning({ userId: userTokens.userId, email: userTokens.email });
  return row ?? null;
}

/** Spends every open token of this purpose for a user (a new link replaces the old ones; a reset ends them all). */
export async function revokeUserTokens(db: DbOrTx, userId: string, purpose: UserTokenPurpose): Promise<void> {
  await db
    .update(userTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(userTokens.userId, userId), eq(userTokens.purpose, purpose), isNull(userTokens.usedAt)));
}
