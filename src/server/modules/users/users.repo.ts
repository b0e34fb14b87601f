import { and, eq, sql } from 'drizzle-orm';
import type { SystemRole } from '../../../domain/constants';
import type { DbOrTx } from '../../db/client';
import { passwordCredentials, type UserRow, users } from '../../db/schema';

export async function getOneById(db: DbOrTx, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function getOneByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
  return row;
}

export async function getWithPasswordByEmail(db: DbOrTx, email: string) {
  const [row] = await db
    .select({ user: users, passwordHash: passwordCredentials.passwordHash })
    .from(users)
    .leftJoin(passwordCredentials, eq(passwordCredentials.userId, users.id))
    .where(eq(users.email, email.toLowerCase()));
  return row;
}

/** The user's password hash, or null for an account without a password (made by a Google sign-in). */
export async function getPasswordHash(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ passwordHash: passwordCredentials.passwordHash })
    .from(passwordCredentials)
    .where(eq(passwordCredentials.userId, userId));
  return row?.passwordHash ?? null;
}

export async function createOne(
  db: DbOrTx,
  values: { email: string; fullName: string; avatarUrl?: string | null; emailVerified?: boolean },
): Promise<UserRow> {
  const [row] = await db
    .insert(users)
    .values({ ...values, email: values.email.toLowerCase() })
    .returning();
  return row!;
}

export async function setPassword(db: DbOrTx, userId: string, passwordHash: string): Promise<void> {
  await db
    .insert(passwordCredentials)
    .values({ userId, passwordHash })
    .onConflictDoUpdate({ target: passwordCredentials.userId, set: { passwordHash, updatedAt: sql`now()` } });
}

export async function setRoleByEmail(db: DbOrTx, email: string, role: SystemRole): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ role, updatedAt: sql`now()` })
    .where(eq(users.email, email.toLowerCase()))
    .returning();
  return row;
}

/**
 * Marks the address proven, if it is still the account's address (a link sent to an address the account has since
 * left proves nothing about the new one). Returns whether it is.
 */
export async function markEmailVerified(db: DbOrTx, id: string, email: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ emailVerified: true, updatedAt: sql`now()` })
    .where(and(eq(users.id, id), eq(users.email, email.toLowerCase())))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Marks the user seen, at most once every five minutes. */
export async function touchLastSeen(db: DbOrTx, id: string): Promise<void> {
  await db
    .update(users)
    .set({ lastSeenAt: sql`now()` })
    .where(sql`${users.id} = ${id} and (${users.lastSeenAt} is null or ${users.lastSeenAt} < now() - interval '5 minutes')`);
}
