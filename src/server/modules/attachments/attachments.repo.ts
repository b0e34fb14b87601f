import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { taskAttachments, tasks, users, type UserRow } from '../../db/schema';

export type AttachmentRow = typeof taskAttachments.$inferSelect;

/** An attachment with its uploader's name and avatar (null once the account is gone). */
export interface AttachmentWithUploader extends AttachmentRow {
  uploaderName: string | null;
  uploaderAvatar: string | null;
}

const withUploader = {
  id: taskAttachments.id,
  taskId: taskAttachments.taskId,
  uploaderId: taskAttachments.uploaderId,
  fileName: taskAttachments.fileName,
  contentType: taskAttachments.contentType,
  size: taskAttachments.size,
  storageKey: taskAttachments.storageKey,
  createdAt: taskAttachments.createdAt,
  uploaderName: users.fullName,
  uploaderAvatar: users.avatarUrl,
};

export async function taskExists(db: DbOrTx, taskId: string): Promise<boolean> {
  const [row] = await db.select({ id: tasks.id }).from(tasks).where(eq(tasks.id, taskId));
  return row !== undefined;
}

/** A task's files, oldest first. */
export async function listByTaskId(db: DbOrTx, taskId: string): Promise<AttachmentWithUploader[]> {
  return db
    .select(withUploader)
    .from(taskAttachments)
    .leftJoin(users, eq(users.id, taskAttachments.uploaderId))
    .where(eq(taskAttachments.taskId, taskId))
    .orderBy(asc(taskAttachments.createdAt), asc(taskAttachments.id));
}

export async function getOneById(db: DbOrTx, id: string): Promise<AttachmentWithUploader | undefined> {
  const [row] = await db
    .select(withUploader)
    .from(taskAttachments)
    .leftJoin(users, eq(users.id, taskAttachments.uploaderId))
    .where(eq(taskAttachments.id, id));
  return row;
}

export async function createOne(db: DbOrTx, values: typeof taskAttachments.$inferInsert): Promise<AttachmentRow> {
  const [row] = await db.insert(taskAttachments).values(values).returning();
  return row!;
}

/** Deletes the file's row if it is still the task's; answers the row deleted. */
export async function deleteOne(db: DbOrTx, taskId: string, id: string): Promise<AttachmentRow | undefined> {
  const [row] = await db
    .delete(taskAttachments)
    .where(and(eq(taskAttachments.id, id), eq(taskAttachments.taskId, taskId)))
    .returning();
  return row;
}

// ---------------------------------------------------------------------------------------------------------------
// Avatars

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

// ---------------------------------------------------------------------------------------------------------------
// The orphan sweep

/** Of these storage keys, those a task's attachment holds. */
export async function attachmentKeysIn(db: DbOrTx, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ key: taskAttachments.storageKey })
    .from(taskAttachments)
    .where(inArray(taskAttachments.storageKey, keys));
  return new Set(rows.map((r) => r.key));
}

/** The avatar URL of each of these users (by primary key: no scan of users). */
export async function avatarUrlsOf(db: DbOrTx, userIds: string[]): Promise<Map<string, string | null>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.select({ id: users.id, url: users.avatarUrl }).from(users).where(inArray(users.id, userIds));
  return new Map(rows.map((r) => [r.id, r.url]));
}
