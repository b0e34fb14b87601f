import { and, eq, inArray, sql } from 'drizzle-orm';
import type { NotificationPreferenceKind } from '../../../domain/constants';
import type { DbOrTx } from '../../db/client';
import { notificationPreferences } from '../../db/schema';

/** What a person wants to be told of one kind, per channel. A kind without a row is on in both (migration 0005). */
export interface ChannelPreferences {
  inApp: boolean;
  email: boolean;
}

/** True unless the user turned email off for this kind. */
export async function wantsEmail(db: DbOrTx, userId: string, kind: NotificationPreferenceKind): Promise<boolean> {
  const [row] = await db
    .select({ email: notificationPreferences.email })
    .from(notificationPreferences)
    .where(and(eq(notificationPreferences.userId, userId), eq(notificationPreferences.kind, kind)));
  return row?.email ?? true;
}

/** The user's stored rows (kinds without one are on). */
export async function listByUserId(db: DbOrTx, userId: string) {
  return db
    .select({ kind: notificationPreferences.kind, inApp: notificationPreferences.inApp, email: notificationPreferences.email })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
}

/** Writes one row per kind given (insert or overwrite). */
export async function upsertMany(
  db: DbOrTx,
  userId: string,
  rows: readonly ({ kind: NotificationPreferenceKind } & ChannelPreferences)[],
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(notificationPreferences)
    .values(rows.map((r) => ({ userId, ...r })))
    .onConflictDoUpdate({
      target: [notificationPreferences.userId, notificationPreferences.kind],
      set: { inApp: sql`excluded.in_app`, email: sql`excluded.email` },
    });
}

/** `user id|kind` of each of these users' kinds with in-app notifications turned off. */
export async function listInAppMuted(db: DbOrTx, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: notificationPreferences.userId, kind: notificationPreferences.kind })
    .from(notificationPreferences)
    .where(and(inArray(notificationPreferences.userId, [...userIds]), eq(notificationPreferences.inApp, false)));
  return new Set(rows.map((r) => `${r.userId}|${r.kind}`));
}
