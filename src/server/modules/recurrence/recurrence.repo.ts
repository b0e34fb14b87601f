import { and, asc, eq, inArray, isNotNull, isNull, lte, notInArray, sql } from 'drizzle-orm';
import type { RepeatDto } from '../../../domain/schemas/repeat';
import type { DbOrTx } from '../../db/client';
import { projects, taskChecklistItems, tasks, taskSeries, users } from '../../db/schema';
import { visibleProjectIds } from '../../db/visibility';

export type SeriesRow = typeof taskSeries.$inferSelect;
export type NewSeries = typeof taskSeries.$inferInsert;
export type TaskRow = typeof tasks.$inferSelect;

/** A person's own time zone (Settings), or null. */
export async function userTimeZone(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db.select({ zone: users.timeZone }).from(users).where(eq(users.id, userId));
  return row?.zone ?? null;
}

export async function insertSeries(db: DbOrTx, values: NewSeries): Promise<SeriesRow> {
  const [row] = await db.insert(taskSeries).values(values).returning();
  return row!;
}

/** The series, locked to the end of the transaction (after its carrying task's row: the order every writer takes). */
export async function lockSeries(db: DbOrTx, id: string): Promise<SeriesRow | undefined> {
  const [row] = await db.select().from(taskSeries).where(eq(taskSeries.id, id)).for('update');
  return row;
}

export async function updateSeries(db: DbOrTx, id: string, values: Partial<NewSeries>): Promise<void> {
  await db
    .update(taskSeries)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(taskSeries.id, id));
}

/**
 * The task's series columns, written in the transaction of the edit that already bumped its version (one edit, one
 * version), or by the schedule (`bump`: a change of its own, which open pages must see as newer).
 */
export async function writeTaskRepeat(
  db: DbOrTx,
  id: string,
  values: { repeat: RepeatDto | null; seriesId?: string; occurrenceDate?: string },
  bump = false,
): Promise<TaskRow> {
  const [row] = await db
    .update(tasks)
    .set({ ...values, ...(bump && { version: sql`${tasks.version} + 1`, updatedAt: sql`now()` }) })
    .where(eq(tasks.id, id))
    .returning();
  return row!;
}

/**
 * One 'On schedule' series due at `now`, locked; one that another instance holds is skipped (`skip locked`: the two
 * share the work), as are `skip` (the ones this run gave up on). Earliest due first.
 */
export async function claimDueSeries(db: DbOrTx, now: Date, skip: readonly string[]): Promise<SeriesRow | undefined> {
  const [row] = await db
    .select()
    .from(taskSeries)
    .where(
      and(
        eq(taskSeries.mode, 'on_schedule'),
        isNull(taskSeries.endedAt),
        isNotNull(taskSeries.nextAt),
        lte(taskSeries.nextAt, now),
        skip.length > 0 ? notInArray(taskSeries.id, [...skip]) : undefined,
      ),
    )
    .orderBy(asc(taskSeries.nextAt))
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

/**
 * The series' carrying task, locked, with its team; undefined when it is gone or someone holds it (an edit of that task
 * is under way: the schedule tries again next run rather than wait while holding the series, which that edit may want).
 */
export async function lockTemplate(db: DbOrTx, id: string) {
  const [row] = await db
    .select({ task: tasks, teamId: projects.teamId })
    .from(tasks)
    .innerJoin(projects, eq(projects.id, tasks.projectId))
    .where(eq(tasks.id, id))
    .for('update', { of: tasks, skipLocked: true });
  return row;
}

/** The team of a project, or undefined when there is none. */
export async function projectTeamId(db: DbOrTx, projectId: string): Promise<string | undefined> {
  const [row] = await db.select({ teamId: projects.teamId }).from(projects).where(eq(projects.id, projectId));
  return row?.teamId;
}

/** Tasks' rows by id, in id order (the caller holds their locks). */
export async function tasksByIds(db: DbOrTx, ids: readonly string[]): Promise<TaskRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(tasks)
    .where(inArray(tasks.id, [...ids]))
    .orderBy(asc(tasks.id));
}

/** Whether a task with this id exists (locked or not). */
export async function taskExists(db: DbOrTx, id: string): Promise<boolean> {
  const [row] = await db.select({ id: tasks.id }).from(tasks).where(eq(tasks.id, id));
  return row !== undefined;
}

/**
 * Inserts a series' task for its date, or nothing when the series already has that date (tasks_series_occurrence_idx:
 * whoever inserts a date second gets nothing). A sub-task goes last among its siblings.
 */
export async function insertOccurrence(db: DbOrTx, values: typeof tasks.$inferInsert): Promise<TaskRow | undefined> {
  const position =
    values.parentId == null
      ? null
      : sql`(select coalesce(max(${tasks.subtaskPosition}), 0) + 1 from ${tasks} where ${tasks.parentId} = ${values.parentId})`;
  const [row] = await db
    .insert(tasks)
    .values({ ...values, subtaskPosition: position })
    .onConflictDoNothing({ target: [tasks.seriesId, tasks.occurrenceDate], where: sql`${tasks.seriesId} is not null` })
    .returning();
  return row;
}

/** A task's checklist copied onto another, in its order, every item unticked. */
export async function copyChecklist(db: DbOrTx, fromTaskId: string, toTaskId: string): Promise<void> {
  await db.execute(sql`
    insert into ${taskChecklistItems} (task_id, title, done, position)
    select ${toTaskId}, title, false, position from ${taskChecklistItems} where task_id = ${fromTaskId}`);
}

export interface CarriedSeriesRow {
  seriesId: string;
  taskId: string;
  title: string;
  projectId: string;
  rule: string;
  timezone: string;
  anchorDate: string;
  nextDate: string;
  createdCount: number;
}

/**
 * The live series `userId` sees through their carrying tasks (in a team they are an active member of), optionally of
 * one team or project, with a next date on or before `to`.
 */
export async function listVisibleCarried(
  db: DbOrTx,
  userId: string,
  filter: { teamId?: string; projectId?: string; to: string },
): Promise<CarriedSeriesRow[]> {
  const rows = await db
    .select({
      seriesId: taskSeries.id,
      taskId: tasks.id,
      title: tasks.title,
      projectId: tasks.projectId,
      rule: taskSeries.rule,
      timezone: taskSeries.timezone,
      anchorDate: taskSeries.anchorDate,
      nextDate: taskSeries.nextDate,
      createdCount: taskSeries.createdCount,
    })
    .from(taskSeries)
    .innerJoin(tasks, eq(tasks.id, taskSeries.currentTaskId))
    .innerJoin(projects, eq(projects.id, tasks.projectId))
    .where(
      and(
        isNull(taskSeries.endedAt),
        isNotNull(tasks.repeat),
        isNotNull(taskSeries.nextDate),
        lte(taskSeries.nextDate, filter.to),
        inArray(projects.id, visibleProjectIds(userId)),
        filter.teamId ? eq(projects.teamId, filter.teamId) : undefined,
        filter.projectId ? eq(tasks.projectId, filter.projectId) : undefined,
      ),
    )
    .orderBy(asc(taskSeries.nextDate), asc(taskSeries.id));
  return rows as CarriedSeriesRow[];
}
