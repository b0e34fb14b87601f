import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { taskChecklistItems } from '../../db/schema';

export type ChecklistItemRow = typeof taskChecklistItems.$inferSelect;

export async function listByTaskId(db: DbOrTx, taskId: string): Promise<ChecklistItemRow[]> {
  return db
    .select()
    .from(taskChecklistItems)
    .where(eq(taskChecklistItems.taskId, taskId))
    .orderBy(asc(taskChecklistItems.position), asc(taskChecklistItems.createdAt), asc(taskChecklistItems.id));
}

/** Appends an item after the task's last one (position max + 1, read by this statement under the task's lock). */
export async function createOne(db: DbOrTx, taskId: string, title: string): Promise<ChecklistItemRow> {
  const last = db
    .select({ p: sql`coalesce(max(${taskChecklistItems.position}), 0) + 1` })
    .from(taskChecklistItems)
    .where(eq(taskChecklistItems.taskId, taskId));
  const [row] = await db
    .insert(taskChecklistItems)
    .values({ taskId, title, position: sql`(${last})` })
    .returning();
  return row!;
}

export async function updateOne(
  db: DbOrTx,
  taskId: string,
  itemId: string,
  values: { title?: string; done?: boolean },
): Promise<ChecklistItemRow | undefined> {
  const [row] = await db
    .update(taskChecklistItems)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(taskChecklistItems.id, itemId), eq(taskChecklistItems.taskId, taskId)))
    .returning();
  return row;
}

/** True when the item was there (and is gone). */
export async function deleteOne(db: DbOrTx, taskId: string, itemId: string): Promise<boolean> {
  const rows = await db
    .delete(taskChecklistItems)
    .where(and(eq(taskChecklistItems.id, itemId), eq(taskChecklistItems.taskId, taskId)))
    .returning({ id: taskChecklistItems.id });
  return rows.length > 0;
}

export async function listIdsByTaskId(db: DbOrTx, taskId: string): Promise<string[]> {
  const rows = await db
    .select({ id: taskChecklistItems.id })
    .from(taskChecklistItems)
    .where(eq(taskChecklistItems.taskId, taskId));
  return rows.map((r) => r.id);
}

/** Positions 1..n in the order of `ids` (all of them the task's items), in one statement; the items, in that order. */
export async function reorder(db: DbOrTx, taskId: string, ids: string[]): Promise<ChecklistItemRow[]> {
  if (ids.length === 0) return [];
  const order = sql`array[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::uuid[]`;
  const rows = await db
    .update(taskChecklistItems)
    .set({ position: sql`array_position(${order}, ${taskChecklistItems.id})`, updatedAt: sql`now()` })
    .where(eq(taskChecklistItems.taskId, taskId))
    .returning();
  return rows.sort((a, b) => a.position - b.position);
}
