import { and, asc, desc, eq, gte, lte, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { projects, tasks, teamMembers, timeEntries, timers, users } from '../../db/schema';
import { taskProject } from '../../db/task-access';
import { activeMembership, projectRole, seesProject, seesProjectAs } from '../../db/visibility';

export type TimeEntryRow = typeof timeEntries.$inferSelect;

/** An entry with what its answer names: its author's name, its task, project and team. */
const entryColumns = {
  entry: timeEntries,
  userName: users.fullName,
  taskTitle: tasks.title,
  projectId: projects.id,
  projectName: projects.name,
  teamId: projects.teamId,
};

export interface EntryWithTask {
  entry: TimeEntryRow;
  userName: string;
  taskTitle: string;
  projectId: string;
  projectName: string;
  teamId: string;
}

/** Entries joined to their author, task and project (every entry has all three: the foreign keys cascade). */
const entriesQuery = (db: DbOrTx) =>
  db
    .select(entryColumns)
    .from(timeEntries)
    .innerJoin(users, eq(users.id, timeEntries.userId))
    .innerJoin(tasks, eq(tasks.id, timeEntries.taskId))
    .innerJoin(projects, taskProject);

/** One entry by id, with the caller's active role in its task's team (null: not a member, or a guest not given its project), or undefined. */
export async function getEntryAccess(db: DbOrTx, id: string, callerId: string) {
  const [row] = await db
    .select({ ...entryColumns, callerRole: projectRole(projects.teamId, projects.id, callerId) })
    .from(timeEntries)
    .innerJoin(users, eq(users.id, timeEntries.userId))
    .innerJoin(tasks, eq(tasks.id, timeEntries.taskId))
    .innerJoin(projects, taskProject)
    .where(eq(timeEntries.id, id));
  return row;
}

/** One entry with its task (after a write, in the same transaction). */
export async function getEntry(db: DbOrTx, id: string): Promise<EntryWithTask | undefined> {
  const [row] = await entriesQuery(db).where(eq(timeEntries.id, id));
  return row;
}

/** The task's entries, newest day first (then newest written first): the task page's list. */
export async function listByTask(db: DbOrTx, taskId: string): Promise<EntryWithTask[]> {
  return entriesQuery(db)
    .where(eq(timeEntries.taskId, taskId))
    .orderBy(desc(timeEntries.date), desc(timeEntries.createdAt), desc(timeEntries.id));
}

export interface EntriesFilter {
  from: string;
  to: string;
  /** Whose entries (undefined: everyone's, for a team's owner or admin). */
  userId?: string;
  /** Only this team's tasks (undefined: every team the caller is an active member of). */
  teamId?: string;
  /** The reader: only tasks of projects they see (teams they are an active member of; a guest's projects). */
  callerId: string;
}

/**
 * Entries from `from` to `to` (both included), oldest day first, on tasks of the teams the caller sees: by the
 * (user_id, date) index for one person, by the team's tasks for a whole team.
 */
export async function listEntries(db: DbOrTx, filter: EntriesFilter): Promise<EntryWithTask[]> {
  const conditions: SQL[] = [gte(timeEntries.date, filter.from), lte(timeEntries.date, filter.to)];
  if (filter.userId !== undefined) conditions.push(eq(timeEntries.userId, filter.userId));
  if (filter.teamId !== undefined) conditions.push(eq(projects.teamId, filter.teamId));
  return entriesQuery(db)
    .innerJoin(
      teamMembers,
      and(
        activeMembership({ teamId: projects.teamId, userId: filter.callerId }),
        seesProjectAs(teamMembers.role, projects.id, filter.callerId),
      ),
    )
    .where(and(...conditions))
    .orderBy(asc(timeEntries.date), asc(timeEntries.createdAt), asc(timeEntries.id));
}

export async function insertEntry(
  db: DbOrTx,
  values: { taskId: string; userId: string; date: string; minutes: number; note: string | null },
): Promise<TimeEntryRow> {
  const [row] = await db.insert(timeEntries).values(values).returning();
  return row!;
}

export async function updateEntry(
  db: DbOrTx,
  id: string,
  values: Partial<Pick<TimeEntryRow, 'date' | 'minutes' | 'note'>>,
): Promise<void> {
  await db
    .update(timeEntries)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(timeEntries.id, id));
}

export async function deleteEntry(db: DbOrTx, id: string): Promise<void> {
  await db.delete(timeEntries).where(eq(timeEntries.id, id));
}

/** The caller's role in a team (null: not an active member). */
export async function roleIn(db: DbOrTx, teamId: string, userId: string) {
  const [row] = await db.select({ role: teamMembers.role }).from(teamMembers).where(activeMembership({ teamId, userId }));
  return row?.role ?? null;
}

// ---- timers ----

/**
 * The person's running timer with its task, whether they may still see that task (an active member of its team), and
 * how long it has run by the database's clock (the one that set `started_at`), or undefined when none runs.
 */
export async function getTimer(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({
      taskId: timers.taskId,
      startedAt: timers.startedAt,
      elapsedMs: sql<number>`(extract(epoch from (now() - ${timers.startedAt})) * 1000)::float8`,
      taskTitle: tasks.title,
      projectId: tasks.projectId,
      teamId: projects.teamId,
      visible: sql<boolean>`${seesProject(projects.teamId, projects.id, userId)}`,
    })
    .from(timers)
    .innerJoin(tasks, eq(tasks.id, timers.taskId))
    .innerJoin(projects, taskProject)
    .where(eq(timers.userId, userId));
  return row;
}

export type TimerRow = NonNullable<Awaited<ReturnType<typeof getTimer>>>;

/**
 * Holds the person's row until the transaction ends: the timer's writes queue on it, so two starts (or a start and a
 * stop) from two devices at once run one after the other, each seeing what the other left. (The timers row itself
 * cannot be the lock: there is none before the first start.) `for no key update` does not block a reference to the
 * person (a new task, an entry) as `for update` would.
 */
export async function lockPerson(db: DbOrTx, userId: string): Promise<{ timeZone: string | null }> {
  const [row] = await db.select({ timeZone: users.timeZone }).from(users).where(eq(users.id, userId)).for('no key update');
  return { timeZone: row?.timeZone ?? null };
}

/** Starts (or restarts) the person's timer on the task, now by the database's clock. */
export async function putTimer(db: DbOrTx, userId: string, taskId: string): Promise<{ startedAt: Date }> {
  const [row] = await db
    .insert(timers)
    .values({ userId, taskId })
    .onConflictDoUpdate({ target: timers.userId, set: { taskId, startedAt: sql`now()` } })
    .returning({ startedAt: timers.startedAt });
  return row!;
}

export async function deleteTimer(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(timers).where(eq(timers.userId, userId));
}
