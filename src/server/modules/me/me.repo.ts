import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  notificationPreferences,
  notifications,
  oauthIdentities,
  passwordCredentials,
  recoveryCodes,
  tasks,
  teamMembers,
  teams,
  type UserRow,
  userTokens,
  users,
} from '../../db/schema';

export async function updateProfile(
  db: DbOrTx,
  userId: string,
  values: { fullName?: string; timeZone?: string | null },
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(users.id, userId))
    .returning();
  return row;
}

/** Moves an active account to a new address, proven by the link it received (so verified). */
export async function setVerifiedEmail(db: DbOrTx, userId: string, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ email: email.toLowerCase(), emailVerified: true, updatedAt: sql`now()` })
    .where(and(eq(users.id, userId), eq(users.isActive, true)))
    .returning();
  return row;
}

export async function setDigestEnabled(db: DbOrTx, userId: string, digestEnabled: boolean): Promise<void> {
  await db.update(users).set({ digestEnabled, updatedAt: sql`now()` }).where(eq(users.id, userId));
}

/**
 * Locks the user's row for the transaction: a transfer of ownership to this user (which locks it FOR SHARE) waits
 * for the deletion, or the deletion for the transfer, so the teams the user owns are read after either.
 */
export async function lockOneById(db: DbOrTx, userId: string): Promise<void> {
  await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

/** The names of the teams the user owns, by name. */
export async function listOwnedTeamNames(db: DbOrTx, userId: string): Promise<string[]> {
  const rows = await db.select({ name: teams.name }).from(teams).where(eq(teams.ownerId, userId)).orderBy(asc(teams.name));
  return rows.map((r) => r.name);
}

/**
 * Account deletion as anonymisation (decision 0015): the row stays, so that the tasks and projects the person
 * created keep their creator (tasks.creator_id cascades on delete, projects.owner_id restricts), but nothing of
 * the person does. Name and address are replaced, sign-in is impossible (no password, no external identity,
 * inactive), and their own data goes: tokens, codes, preferences, notifications, memberships, assignments.
 * Returns the memberships it ended (for the teams' realtime updates).
 */
export async function anonymiseUser(tx: DbOrTx, userId: string, placeholder: { email: string; fullName: string }) {
  await tx
    .update(users)
    .set({
      email: placeholder.email,
      fullName: placeholder.fullName,
      avatarUrl: null,
      isActive: false,
      emailVerified: false,
      timeZone: null,
      totpSecret: null,
      totpEnabledAt: null,
      digestEnabled: false,
      updatedAt: sql`now()`,
    })
    .where(eq(users.id, userId));
  await tx.delete(passwordCredentials).where(eq(passwordCredentials.userId, userId));
  await tx.delete(oauthIdentities).where(eq(oauthIdentities.userId, userId));
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.delete(userTokens).where(eq(userTokens.userId, userId));
  await tx.delete(notificationPreferences).where(eq(notificationPreferences.userId, userId));
  await tx.delete(notifications).where(eq(notifications.userId, userId));
  // What a deleted account's foreign key does (set null), with a new version so that a form opened before it
  // cannot put the assignee back.
  await tx
    .update(tasks)
    .set({ assigneeId: null, version: sql`${tasks.version} + 1` })
    .where(eq(tasks.assigneeId, userId));
  return tx
    .delete(teamMembers)
    .where(eq(teamMembers.userId, userId))
    .returning({ teamId: teamMembers.teamId, memberId: teamMembers.id });
}
