import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { StatusCategory } from '../../../domain/workflow';
import type { DbOrTx } from '../../db/client';
import { lockFor } from '../../db/locks';
import { projects, projectStatuses, tasks } from '../../db/schema';

export type StatusRow = typeof projectStatuses.$inferSelect;

/** A live status (in the workflow, so with a position). */
export type LiveStatusRow = StatusRow & { position: number };

/**
 * Serialises the writes to one project's workflow (to the end of the transaction): two of them would otherwise both
 * pass the count, name and category checks that only the other one breaks.
 */
export function lockWorkflow(db: DbOrTx, projectId: string): Promise<void> {
  return lockFor(db, 'workflows', projectId);
}

/**
 * The project's team, or undefined when there is no such project. With `keep`, its row is held `for key share` to the
 * end of the transaction: the project cannot be deleted (or its id change) under a workflow write, while its own edits
 * and its tasks' writes go on.
 */
export async function getProjectTeam(db: DbOrTx, projectId: string, keep = false): Promise<string | undefined> {
  const query = db.select({ teamId: projects.teamId }).from(projects).where(eq(projects.id, projectId));
  const [row] = keep ? await query.for('key share') : await query;
  return row?.teamId;
}

/** A status (live or deleted), or undefined. */
export async function getOneById(db: DbOrTx, id: string): Promise<StatusRow | undefined> {
  const [row] = await db.select().from(projectStatuses).where(eq(projectStatuses.id, id));
  return row;
}

/** The project's live statuses, in workflow order. */
export async function listLiveByProjectId(db: DbOrTx, projectId: string): Promise<LiveStatusRow[]> {
  const rows = await db
    .select()
    .from(projectStatuses)
    .where(and(eq(projectStatuses.projectId, projectId), isNull(projectStatuses.deletedAt)))
    .orderBy(asc(projectStatuses.position));
  // A live status has a position (the table's check: position is null exactly when deleted_at is not).
  return rows as LiveStatusRow[];
}

/** Every key the project has used, deleted statuses' included (a key is never reused). */
export async function listKeysByProjectId(db: DbOrTx, projectId: string): Promise<string[]> {
  const rows = await db
    .select({ key: projectStatuses.key })
    .from(projectStatuses)
    .where(eq(projectStatuses.projectId, projectId));
  return rows.map((r) => r.key);
}

export async function createOne(
  db: DbOrTx,
  values: Pick<StatusRow, 'projectId' | 'key' | 'name' | 'category' | 'color' | 'position' | 'wipLimit'>,
): Promise<LiveStatusRow> {
  const [row] = await db.insert(projectStatuses).values(values).returning();
  return row as LiveStatusRow;
}

export async function updateOne(
  db: DbOrTx,
  id: string,
  changes: Partial<Pick<StatusRow, 'name' | 'category' | 'color' | 'wipLimit'>>,
): Promise<LiveStatusRow> {
  const [row] = await db
    .update(projectStatuses)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(projectStatuses.id, id))
    .returning();
  return row as LiveStatusRow;
}

/**
 * Holds a status still: first its tasks' rows, then its own row `for update`, to the end of the transaction. Task
 * writes into it read it `for key share` (the tasks trigger of migration 0011), so they wait for this transaction and
 * then see what it did (a new category, or the status deleted); a writer that already holds one of its tasks is waited
 * for before the status is locked, so the two never wait on each other. Returns how many tasks it has now.
 */
export async function holdStatus(db: DbOrTx, projectId: string, status: { id: string; key: string }): Promise<number> {
  await db
    .select({ id: tasks.id })
    .from(tasks)
    .where(and(eq(tasks.projectId, projectId), eq(tasks.status, status.key)))
    .for('update');
  await db.select({ id: projectStatuses.id }).from(projectStatuses).where(eq(projectStatuses.id, status.id)).for('update');
  const [row] = await db
    .select({ n: count() })
    .from(tasks)
    .where(and(eq(tasks.projectId, projectId), eq(tasks.status, status.key)));
  return Number(row?.n ?? 0);
}

/**
 * A recategorised status's tasks take its new category. The tasks trigger copies the category only when a task's
 * status or project is written (migration 0011), so this writes the column itself; the counters are per key and do
 * not change.
 */
export async function setTasksCategory(db: DbOrTx, projectId: string, key: string, category: StatusCategory): Promise<void> {
  await db
    .update(tasks)
    .set({ statusCategory: category })
    .where(and(eq(tasks.projectId, projectId), eq(tasks.status, key)));
}

/**
 * Moves every task of status `from` to status `to` in one statement, each as an edit of the task would (a new version,
 * updated now). The counters' trigger moves their counts by key in the same statement. Returns the moved tasks' ids.
 */
export async function moveTasks(db: DbOrTx, projectId: string, from: string, to: string): Promise<string[]> {
  const rows = await db
    .update(tasks)
    .set({ status: to, version: sql`${tasks.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(tasks.projectId, projectId), eq(tasks.status, from)))
    .returning({ id: tasks.id });
  return rows.map((r) => r.id);
}

/**
 * Takes a status out of the workflow: its row stays (deleted, no position), keeping its key for the history; the
 * statuses after it move up one place (the positions' uniqueness is checked at the commit).
 */
export async function softDelete(db: DbOrTx, status: { id: string; projectId: string; position: number }): Promise<void> {
  await db
    .update(projectStatuses)
    .set({ deletedAt: sql`now()`, position: null, updatedAt: sql`now()` })
    .where(eq(projectStatuses.id, status.id));
  await db
    .update(projectStatuses)
    .set({ position: sql`${projectStatuses.position} - 1` })
    .where(
      and(
        eq(projectStatuses.projectId, status.projectId),
        isNull(projectStatuses.deletedAt),
        sql`${projectStatuses.position} > ${status.position}`,
      ),
    );
}

/** Positions 0…n−1 in the order of `ids` (the project's live statuses, every one), in one statement. */
export async function setOrder(db: DbOrTx, projectId: string, ids: readonly string[]): Promise<void> {
  const order = sql`array[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::uuid[]`;
  await db
    .update(projectStatuses)
    .set({ position: sql`array_position(${order}, ${projectStatuses.id}) - 1` })
    .where(and(eq(projectStatuses.projectId, projectId), isNull(projectStatuses.deletedAt)));
}

/**
 * The live status `key` of the project, held `for share` to the end of the transaction (undefined when the project has
 * no such live status). A task write takes it after its task row (tasks.service), and a delete of the status takes
 * the status's tasks first, then this row `for update` (holdStatus): the delete waits for a writer already holding a
 * task, and a writer that comes after the delete's lock waits and then finds the status gone.
 */
export async function shareLiveStatus(db: DbOrTx, projectId: string, key: string): Promise<StatusRow | undefined> {
  const [row] = await db
    .select()
    .from(projectStatuses)
    .where(and(eq(projectStatuses.projectId, projectId), eq(projectStatuses.key, key), isNull(projectStatuses.deletedAt)))
    .for('share');
  return row;
}
