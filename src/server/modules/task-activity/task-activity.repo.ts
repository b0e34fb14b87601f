import { and, asc, eq, inArray, not, sql } from 'drizzle-orm';
import type { TaskFieldChange } from '../../../domain/task-activity';
import type { StatusCategory } from '../../../domain/workflow';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import type { CustomFieldDef } from '../../../domain/custom-fields';
import { customFields, projects, taskActivity, tasks, users } from '../../db/schema';
import { projectRole, seesProject } from '../../db/visibility';
import { taskProject } from '../../db/task-access';

const creators = alias(users, 'creator');

/** The task's creation (when, by whom) and the caller's role in its team (null: not an active member). */
export async function getTaskCreation(db: DbOrTx, taskId: string, userId: string) {
  const [row] = await db
    .select({
      callerRole: projectRole(projects.teamId, projects.id, userId),
      createdAt: tasks.createdAt,
      creatorId: creators.id,
      creatorName: creators.fullName,
      creatorAvatar: creators.avatarUrl,
    })
    .from(tasks)
    .innerJoin(projects, taskProject)
    .leftJoin(creators, eq(creators.id, tasks.creatorId))
    .where(eq(tasks.id, taskId));
  return row;
}

/** The task's history, oldest first, with each actor (null once the account is gone). */
export async function listByTaskId(db: DbOrTx, taskId: string) {
  return db
    .select({
      id: taskActivity.id,
      taskId: taskActivity.taskId,
      field: taskActivity.field,
      oldValue: taskActivity.oldValue,
      newValue: taskActivity.newValue,
      oldLabel: taskActivity.oldLabel,
      newLabel: taskActivity.newLabel,
      fieldName: taskActivity.fieldName,
      createdAt: taskActivity.createdAt,
      actorId: users.id,
      actorName: users.fullName,
      actorAvatar: users.avatarUrl,
    })
    .from(taskActivity)
    .leftJoin(users, eq(users.id, taskActivity.actorId))
    .where(eq(taskActivity.taskId, taskId))
    .orderBy(asc(taskActivity.createdAt), asc(taskActivity.id));
}

/**
 * The activity history of one change: one row per changed field, in one statement. Stamped with clock_timestamp()
 * rather than now() (the transaction's start): the change holds the task's lock by now, so two concurrent changes
 * get times in the order they took effect, which the status history (cycle time) relies on.
 */
/** A custom field's entry (issue 38): the field and its name, beside the values and their labels. */
export type CustomFieldChange = TaskFieldChange & { field: 'custom_field'; fieldId: string; fieldName: string };

export async function insertActivity(
  db: DbOrTx,
  taskId: string,
  actorId: string | null,
  changes: (TaskFieldChange & {
    oldCategory?: StatusCategory;
    newCategory?: StatusCategory;
    fieldId?: string;
    fieldName?: string;
  })[],
): Promise<void> {
  if (changes.length === 0) return;
  await db.insert(taskActivity).values(changes.map((c) => ({ ...c, taskId, actorId, createdAt: sql`clock_timestamp()` })));
}

/**
 * The history of many tasks moved from one status to another by one statement (a status deleted with `moveTo`): one
 * status entry per task, as a move of each would write it, in one `insert … select` (the ids travel as one array).
 * Both statuses are their project's, so the trigger of migration 0012 gives the rows their categories.
 */
export async function insertStatusMoves(
  db: DbOrTx,
  taskIds: readonly string[],
  actorId: string,
  move: { from: string; to: string },
): Promise<void> {
  if (taskIds.length === 0) return;
  await db.execute(sql`
    insert into ${taskActivity} (task_id, actor_id, field, old_value, new_value, created_at)
    select moved.id, ${actorId}, 'status', ${move.from}, ${move.to}, clock_timestamp()
    from unnest(${`{${taskIds.join(',')}}`}::uuid[]) as moved(id)`);
}

/** The titles of these tasks (nulls skipped), by id: what a history entry names a parent by. */
export async function taskTitles(db: DbOrTx, ids: readonly (string | null)[]): Promise<Map<string, string>> {
  const wanted = ids.filter((id): id is string => id !== null);
  if (wanted.length === 0) return new Map();
  const rows = await db.select({ id: tasks.id, title: tasks.title }).from(tasks).where(inArray(tasks.id, wanted));
  return new Map(rows.map((r) => [r.id, r.title]));
}

/** These custom fields as a history entry names and reads them, in their team's order (a deleted one is absent). */
export async function fieldsByIds(
  db: DbOrTx,
  ids: readonly string[],
): Promise<Pick<CustomFieldDef, 'id' | 'name' | 'type' | 'options' | 'unit' | 'decimals'>[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      id: customFields.id,
      name: customFields.name,
      type: customFields.type,
      options: customFields.options,
      unit: customFields.unit,
      decimals: customFields.decimals,
    })
    .from(customFields)
    .where(inArray(customFields.id, [...ids]))
    .orderBy(asc(customFields.position), asc(customFields.id));
}

/** The full names of these users, by id (a person field's values in the history). */
export async function userNames(db: DbOrTx, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, name: users.fullName })
    .from(users)
    .where(inArray(users.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * Of these task ids, those of tasks that exist in a project `userId` does not see (a team they are not an active member
 * of, or a project not given to them as a guest); a deleted one is not.
 */
export async function hiddenTaskIds(db: DbOrTx, ids: readonly string[], userId: string): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: tasks.id })
    .from(tasks)
    .innerJoin(projects, taskProject)
    .where(and(inArray(tasks.id, [...ids]), not(seesProject(projects.teamId, projects.id, userId))));
  return new Set(rows.map((r) => r.id));
}

/** Of these project ids, those of projects that exist and `userId` does not see (decision 0031: a guest's others). */
export async function hiddenProjectIds(db: DbOrTx, ids: readonly string[], userId: string): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: projects.id })
    .from(projects)
    .where(and(inArray(projects.id, [...ids]), not(seesProject(projects.teamId, projects.id, userId))));
  return new Set(rows.map((r) => r.id));
}
