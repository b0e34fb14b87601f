import { and, desc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { TaskPriority } from '../../../domain/constants';
import type { StatusCategory } from '../../../domain/workflow';
import type { DbOrTx } from '../../db/client';
import { calendarFeeds, projects, projectStatuses, tasks, taskSeries, users } from '../../db/schema';
import { seesProject } from '../../db/visibility';

export type CalendarFeedRow = typeof calendarFeeds.$inferSelect;

export async function getOneByUserId(db: DbOrTx, userId: string): Promise<CalendarFeedRow | undefined> {
  const [row] = await db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, userId));
  return row;
}

/** The user's feed with this token hash: a new one, or the old one's token replaced ('Reset link'), never used yet. */
export async function upsertOne(db: DbOrTx, userId: string, tokenHash: string): Promise<CalendarFeedRow> {
  const [row] = await db
    .insert(calendarFeeds)
    .values({ userId, tokenHash })
    .onConflictDoUpdate({
      target: calendarFeeds.userId,
      set: { tokenHash, createdAt: sql`now()`, lastUsedAt: null },
    })
    .returning();
  return row!;
}

/** True when there was a feed (and it is gone). */
export async function deleteOne(db: DbOrTx, userId: string): Promise<boolean> {
  const rows = await db.delete(calendarFeeds).where(eq(calendarFeeds.userId, userId)).returning({ userId: calendarFeeds.userId });
  return rows.length > 0;
}

/** The feed whose token has this hash, if its owner's account is active. */
export async function getOneByTokenHash(
  db: DbOrTx,
  tokenHash: string,
): Promise<Pick<CalendarFeedRow, 'userId' | 'lastUsedAt'> | undefined> {
  const [row] = await db
    .select({ userId: calendarFeeds.userId, lastUsedAt: calendarFeeds.lastUsedAt })
    .from(calendarFeeds)
    .innerJoin(users, eq(users.id, calendarFeeds.userId))
    .where(and(eq(calendarFeeds.tokenHash, tokenHash), eq(users.isActive, true)));
  return row;
}

/** Marks the feed used, unless it was within `minSeconds` (a calendar polling often writes a row a minute at most). */
export async function touchLastUsed(db: DbOrTx, userId: string, minSeconds: number): Promise<void> {
  await db
    .update(calendarFeeds)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(calendarFeeds.userId, userId),
        or(isNull(calendarFeeds.lastUsedAt), lt(calendarFeeds.lastUsedAt, sql`now() - make_interval(secs => ${minSeconds})`)),
      ),
    );
}

export interface FeedTaskRow {
  id: string;
  title: string;
  /** The name of the task's status (the default four: their labels) and its category. */
  statusName: string;
  statusCategory: StatusCategory;
  priority: TaskPriority;
  dueDate: string;
  /** On or before dueDate (the database's check), or null: the event then covers the due day alone. */
  startDate: string | null;
  projectName: string;
  updatedAt: Date;
  version: number;
  /** The series the task carries (issue 39): its RRULE and the tasks it has made, or nulls. */
  repeatRule: string | null;
  seriesCreated: number | null;
}

/**
 * Every task with a due date of the teams `userId` is an active member of, read now (a team left since the feed was
 * made drops out), earliest first; past `limit` tasks, the `limit` due latest.
 */
export async function listFeedTasks(db: DbOrTx, userId: string, limit: number): Promise<FeedTaskRow[]> {
  const rows = await db
    .select({
      id: tasks.id,
      title: tasks.title,
      statusName: projectStatuses.name,
      statusCategory: tasks.statusCategory,
      priority: tasks.priority,
      dueDate: tasks.dueDate,
      startDate: tasks.startDate,
      projectName: projects.name,
      updatedAt: tasks.updatedAt,
      version: tasks.version,
      repeatRule: taskSeries.rule,
      seriesCreated: taskSeries.createdCount,
    })
    .from(tasks)
    .innerJoin(projects, eq(projects.id, tasks.projectId))
    .innerJoin(projectStatuses, and(eq(projectStatuses.projectId, tasks.projectId), eq(projectStatuses.key, tasks.status)))
    // Only the carrying task's series: the task that handed it on is a single event.
    .leftJoin(
      taskSeries,
      and(
        eq(taskSeries.id, tasks.seriesId),
        isNotNull(tasks.repeat),
        isNull(taskSeries.endedAt),
        eq(taskSeries.currentTaskId, tasks.id),
      ),
    )
    // Correlated on the task's project (not `projects.id in visibleProjectIds`, a semi-join compared per task: dashboard.repo).
    .where(and(seesProject(projects.teamId, projects.id, userId), isNotNull(tasks.dueDate)))
    .orderBy(desc(tasks.dueDate), desc(tasks.id))
    .limit(limit);
  return (rows as FeedTaskRow[]).reverse();
}
