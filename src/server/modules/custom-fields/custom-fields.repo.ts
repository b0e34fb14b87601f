import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { CustomFieldType } from '../../../domain/custom-fields';
import type { DbOrTx } from '../../db/client';
import { lockFor } from '../../db/locks';
import { customFields, projects, taskFieldValues, tasks, teamMembers } from '../../db/schema';
import { activeMembership } from '../../db/visibility';

export type FieldRow = typeof customFields.$inferSelect;

/**
 * Serialises the writes to one team's fields (to the end of the transaction): two creations would otherwise both pass
 * the limit and take the same last position, and two moves would renumber over each other.
 */
export function lockTeamFields(db: DbOrTx, teamId: string): Promise<void> {
  return lockFor(db, 'custom_fields', teamId);
}

/**
 * The team's fields (archived ones included), in their order. With `share`, each row is held `for share` to the end of
 * the transaction: a field's change or deletion (which holds its row `for update`) waits for the reader, and the reader
 * for it — a task write that checks values against the fields then stores them sees the fields as they are at its end.
 */
export async function listByTeam(db: DbOrTx, teamId: string, share = false): Promise<FieldRow[]> {
  const query = db.select().from(customFields).where(eq(customFields.teamId, teamId)).orderBy(asc(customFields.position));
  return share ? query.for('share') : query;
}

/** Every field of every team `userId` is an active member of, by team, then in each team's order. */
export function listForUser(db: DbOrTx, userId: string): Promise<FieldRow[]> {
  return db
    .select({ field: customFields })
    .from(customFields)
    .innerJoin(teamMembers, activeMembership({ teamId: customFields.teamId, userId }))
    .orderBy(asc(customFields.teamId), asc(customFields.position))
    .then((rows) => rows.map((r) => r.field));
}

/** A field, or undefined; with `lock`, its row is held `for update` to the end of the transaction. */
export async function getOneById(db: DbOrTx, id: string, lock = false): Promise<FieldRow | undefined> {
  const query = db.select().from(customFields).where(eq(customFields.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** Which of `ids` are projects of the team. */
export async function teamProjectIds(db: DbOrTx, teamId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.teamId, teamId), inArray(projects.id, [...ids])));
  return rows.map((r) => r.id);
}

export type NewFieldValues = Pick<
  FieldRow,
  'teamId' | 'name' | 'type' | 'options' | 'projectIds' | 'showOnCard' | 'unit' | 'decimals' | 'position'
>;

export async function insertMany(db: DbOrTx, values: readonly NewFieldValues[]): Promise<FieldRow[]> {
  if (values.length === 0) return [];
  return db
    .insert(customFields)
    .values([...values])
    .returning();
}

export type FieldChanges = Partial<
  Pick<FieldRow, 'name' | 'options' | 'projectIds' | 'showOnCard' | 'archived' | 'unit' | 'decimals' | 'position'>
>;

export async function updateOne(db: DbOrTx, id: string, changes: FieldChanges): Promise<FieldRow> {
  const [row] = await db
    .update(customFields)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(customFields.id, id))
    .returning();
  return row!;
}

/** A PostgreSQL array of ids (uuids: checked by the schemas or made here), sent as one parameter. */
const idArray = (ids: readonly string[], type: 'uuid' | 'text' = 'uuid') => sql`${`{${ids.join(',')}}`}::${sql.raw(type)}[]`;

/** Positions 0…n−1 in the order of `ids` (every field of the team), in one statement. */
export async function setOrder(db: DbOrTx, teamId: string, ids: readonly string[]): Promise<void> {
  await db
    .update(customFields)
    .set({ position: sql`array_position(${idArray(ids)}, ${customFields.id}) - 1` })
    .where(eq(customFields.teamId, teamId));
}

/**
 * Takes the removed options out of the values of every task that had one (found through the values table's option
 * index), each as an edit of the task (a new version, updated now): a select loses its value; a multi-select keeps its
 * other options, or loses its value when none is left. The tasks' trigger rewrites their values rows. Returns how many
 * tasks changed.
 */
export async function clearOptions(
  db: DbOrTx,
  field: { id: string; type: CustomFieldType },
  removed: readonly string[],
): Promise<number> {
  if (removed.length === 0) return 0;
  const key = field.id;
  const kept = sql`(select jsonb_agg(e.value order by e.ord) from jsonb_array_elements(${tasks.fields} -> ${key}) with ordinality e(value, ord)
    where (e.value #>> '{}') <> all(${idArray(removed, 'text')}))`;
  const fields =
    field.type === 'multi_select'
      ? sql`case when jsonb_typeof(${tasks.fields} -> ${key}) = 'array' and ${kept} is not null
          then jsonb_set(${tasks.fields}, array[${key}::text], ${kept}) else ${tasks.fields} - ${key}::text end`
      : sql`${tasks.fields} - ${key}::text`;
  const rows = await db
    .update(tasks)
    .set({ fields, version: sql`${tasks.version} + 1`, updatedAt: sql`now()` })
    .where(
      inArray(
        tasks.id,
        db
          .select({ id: taskFieldValues.taskId })
          .from(taskFieldValues)
          .where(sql`${taskFieldValues.vOption} = any(${idArray(removed)})`),
      ),
    )
    .returning({ id: tasks.id });
  return rows.length;
}

/**
 * Takes the field's key out of the values of the team's tasks that have it (each as an edit of the task). Its values
 * rows go with the field's row (the cascade). Returns how many tasks changed.
 */
export async function removeFromTasks(db: DbOrTx, teamId: string, fieldId: string): Promise<number> {
  const rows = await db
    .update(tasks)
    .set({ fields: sql`${tasks.fields} - ${fieldId}::text`, version: sql`${tasks.version} + 1`, updatedAt: sql`now()` })
    .where(
      and(
        inArray(tasks.projectId, db.select({ id: projects.id }).from(projects).where(eq(projects.teamId, teamId))),
        sql`jsonb_exists(${tasks.fields}, ${fieldId}::text)`,
      ),
    )
    .returning({ id: tasks.id });
  return rows.length;
}

/** Deletes the field and, by the cascade, its values rows. */
export async function deleteOne(db: DbOrTx, field: { id: string; teamId: string; position: number }): Promise<void> {
  await db.delete(customFields).where(eq(customFields.id, field.id));
  await db
    .update(customFields)
    .set({ position: sql`${customFields.position} - 1` })
    .where(and(eq(customFields.teamId, field.teamId), sql`${customFields.position} > ${field.position}`));
}

/** How many tasks have a value for the field, and how many have each option (options no task has are absent). */
export async function usage(db: DbOrTx, fieldId: string): Promise<{ tasks: number; options: Map<string, number> }> {
  const [total] = await db
    .select({ n: sql<number>`count(distinct ${taskFieldValues.taskId})::int` })
    .from(taskFieldValues)
    .where(eq(taskFieldValues.fieldId, fieldId));
  const perOption = await db
    .select({ option: taskFieldValues.vOption, n: sql<number>`count(distinct ${taskFieldValues.taskId})::int` })
    .from(taskFieldValues)
    .where(and(eq(taskFieldValues.fieldId, fieldId), isNotNull(taskFieldValues.vOption)))
    .groupBy(taskFieldValues.vOption);
  return {
    tasks: Number(total?.n ?? 0),
    options: new Map(perOption.map((r) => [r.option!, Number(r.n)])),
  };
}
