import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { taskAttachments, tasks, users } from '../../db/schema';

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

/** Attachments with their uploader's name and avatar (a left join: the account may be gone). */
const selectWithUploader = (db: DbOrTx) =>
  db.select(withUploader).from(taskAttachments).leftJoin(users, eq(users.id, taskAttachments.uploaderId));

/** A task's files, oldest first. */
export async function listByTaskId(db: DbOrTx, taskId: string): Promise<AttachmentWithUploader[]> {
  return selectWithUploader(db)
    .where(eq(taskAttachments.taskId, taskId))
    .orderBy(asc(taskAttachments.createdAt), asc(taskAttachments.id));
}

export async function getOneById(db: DbOrTx, id: string): Promise<AttachmentWithUploader | undefined> {
  const [row] = await selectWithUploader(db).where(eq(taskAttachments.id, id));
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
