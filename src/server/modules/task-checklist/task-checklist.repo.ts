import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { projects, taskChecklistItems, tasks } from '../../db/schema';
import { activeRole } from '../../db/visibility';

export type ChecklistItemRow = typeof taskChecklistItems.$inferSelect;

const accessColumns = (userId: string) => ({
  taskId: tasks.id,
  projectId: tasks.projectId,
  teamId: projects.teamId,
  callerRole: activeRole(projects.teamId, userId),
  /** Kept by the checklist's trigger (migration 0006); read, never written. */
  itemCount: tasks.checklistTotal,
});

/** The task's project and team, and the caller's role there (null: not an active member). */
export async function getTaskAccess(db: DbOrTx, taskId: string, userId: string) {
  const [row] = await db
    .select(accessColumns(userId))
    .from(tasks)
    .innerJoin(projects, eq(projects.id, tasks.projectId))
    .where(eq(tasks.id, taskId));
  return row;
}

/**
 * As getTaskAccess, and locks the task row (FOR NO KEY UPDATE, as the counters' trigger would) until the
 * transaction ends. Every checklist write takes it first: writes to one checklist run one at a time (the limit and
 * a reorder's list hold), and all of them lock the task before its items, as deleting the task does; an item ticked
 * first and its task locked by the trigger afterwards could deadlock with a reorder or a task deletion.
 */
export async function lockTaskAccess(db: DbOrTx, taskId: string, userId: string) {
  const [row] = await db
    .select(accessColumns(userId))
    .from(tasks)
    .innerJoin(projects, eq(projects.id, tasks.projectId))
    .where(eq(tasks.id, taskId))
    .for('no key update', { of: tasks });
  return row;
}

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
