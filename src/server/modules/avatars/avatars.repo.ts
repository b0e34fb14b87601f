import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { type UserRow, users } from '../../db/schema';

/** The user's row, locked for the rest of the transaction (one avatar change at a time). */
export async function lockUser(db: DbOrTx, userId: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).for('update');
  return row;
}

export async function setAvatarUrl(db: DbOrTx, userId: string, avatarUrl: string | null): Promise<UserRow | undefined> {
  const [row] = await db.update(users).set({ avatarUrl, updatedAt: sql`now()` }).where(eq(users.id, userId)).returning();
  return row;
}

/** True when `avatarUrl` is still some user's avatar (a replaced one is not). */
export async function isCurrentAvatar(db: DbOrTx, userId: string, avatarUrl: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.avatarUrl, avatarUrl)));
  return row !== undefined;
}

/** The avatar URL of each of these users (by primary key: no scan of users). */
export async function avatarUrlsOf(db: DbOrTx, userIds: string[]): Promise<Map<string, string | null>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.select({ id: users.id, url: users.avatarUrl }).from(users).where(inArray(users.id, userIds));
  return new Map(rows.map((r) => [r.id, r.url]));
}
