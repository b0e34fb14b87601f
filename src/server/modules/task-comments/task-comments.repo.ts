import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { MailKind, NotificationPreferenceKind } from '../../../domain/constants';
import type { DbOrTx } from '../../db/client';
import { notificationPreferences, projects, taskComments, tasks, taskWatchers, teamMembers, users } from '../../db/schema';
import { activeMembership, memberUser, seesPerson } from '../../db/visibility';
import { taskProject } from '../../db/task-access';

export type CommentRow = typeof taskComments.$inferSelect;

/** A person as the task page shows them. */
export interface PersonRow {
  id: string;
  fullName: string;
  avatarUrl: string | null;
}

/** Which of `userIds` are active members of the team. */
export async function listActiveMemberIds(db: DbOrTx, teamId: string, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .where(and(activeMembership({ teamId }), inArray(teamMembers.userId, [...userIds])));
  return new Set(rows.map((r) => r.userId));
}

const personColumns = { id: users.id, fullName: users.fullName, avatarUrl: users.avatarUrl };

/** The team's active members `viewerId` sees (decision 0031: a guest, only some), by name. */
export async function listMembers(db: DbOrTx, teamId: string, viewerId: string): Promise<PersonRow[]> {
  return db
    .select(personColumns)
    .from(teamMembers)
    .innerJoin(users, memberUser)
    .where(and(activeMembership({ teamId }), seesPerson(teamMembers.teamId, teamMembers.userId, viewerId, teamMembers.role)))
    .orderBy(asc(sql`lower(${users.fullName})`), asc(users.id));
}

/** The people with these ids that still exist (any order). */
export async function listPeople(db: DbOrTx, ids: readonly string[]): Promise<PersonRow[]> {
  if (ids.length === 0) return [];
  return db
    .select(personColumns)
    .from(users)
    .where(inArray(users.id, [...ids]));
}

// ---- comments ----

const commentColumns = {
  comment: taskComments,
  authorName: users.fullName,
  authorAvatar: users.avatarUrl,
};
export interface CommentWithAuthor {
  comment: CommentRow;
  authorName: string | null;
  authorAvatar: string | null;
}

/** The task's comments with their authors, oldest first. */
export async function listByTaskId(db: DbOrTx, taskId: string): Promise<CommentWithAuthor[]> {
  return db
    .select(commentColumns)
    .from(taskComments)
    .leftJoin(users, eq(users.id, taskComments.authorId))
    .where(eq(taskComments.taskId, taskId))
    .orderBy(asc(taskComments.createdAt), asc(taskComments.id));
}

/** One comment of the task (undefined when it does not exist or belongs to another task). */
export async function getOneById(db: DbOrTx, taskId: string, id: string): Promise<CommentRow | undefined> {
  const [row] = await db
    .select()
    .from(taskComments)
    .where(and(eq(taskComments.id, id), eq(taskComments.taskId, taskId)));
  return row;
}

export async function createOne(
  db: DbOrTx,
  values: { taskId: string; authorId: string; body: string; mentions: string[] },
): Promise<CommentRow> {
  const [row] = await db.insert(taskComments).values(values).returning();
  return row!;
}

export async function updateOne(db: DbOrTx, id: string, values: { body: string; mentions: string[] }): Promise<CommentRow> {
  const [row] = await db
    .update(taskComments)
    .set({ ...values, editedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(taskComments.id, id))
    .returning();
  return row!;
}

export async function deleteOne(db: DbOrTx, id: string): Promise<void> {
  await db.delete(taskComments).where(eq(taskComments.id, id));
}

// ---- watchers ----

/**
 * Rows `watching = true` for these people. With `override`, an explicit unwatch is replaced (a commenter watches
 * again); without, it stands (being mentioned does not undo an unwatch).
 */
export async function watchMany(
  db: DbOrTx,
  taskId: string,
  userIds: readonly string[],
  { override }: { override: boolean },
): Promise<void> {
  if (userIds.length === 0) return;
  const insert = db.insert(taskWatchers).values(userIds.map((userId) => ({ taskId, userId, watching: true })));
  const target = [taskWatchers.taskId, taskWatchers.userId];
  await (override ? insert.onConflictDoUpdate({ target, set: { watching: true } }) : insert.onConflictDoNothing({ target }));
}

/** An explicit choice (true or false), which overrides the defaults (creator, assignee). */
export async function setWatching(db: DbOrTx, taskId: string, userId: string, watching: boolean): Promise<void> {
  await db
    .insert(taskWatchers)
    .values({ taskId, userId, watching })
    .onConflictDoUpdate({ target: [taskWatchers.taskId, taskWatchers.userId], set: { watching } });
}

/**
 * The task's watchers, by name, from one statement: its creator and assignee by default, anyone with a
 * `watching = true` row, less anyone with an explicit `false`; only active members of the task's (current) team, and
 * with `viewerId`, only those the viewer sees.
 */
export async function listWatchers(db: DbOrTx, taskId: string, viewerId?: string): Promise<PersonRow[]> {
  return db
    .select(personColumns)
    .from(tasks)
    .innerJoin(projects, taskProject)
    .innerJoin(teamMembers, activeMembership({ teamId: projects.teamId }))
    .innerJoin(users, memberUser)
    .leftJoin(taskWatchers, and(eq(taskWatchers.taskId, tasks.id), eq(taskWatchers.userId, teamMembers.userId)))
    .where(
      and(
        eq(tasks.id, taskId),
        // Shown to a reader (`viewerId`): only the people they see (decision 0031: a guest, some).
        viewerId === undefined ? undefined : seesPerson(projects.teamId, teamMembers.userId, viewerId, teamMembers.role),
        or(
          eq(taskWatchers.watching, true),
          and(
            isNull(taskWatchers.watching),
            or(eq(teamMembers.userId, tasks.creatorId), eq(teamMembers.userId, tasks.assigneeId)),
          ),
        ),
      ),
    )
    .orderBy(asc(sql`lower(${users.fullName})`), asc(users.id));
}

/** The ids of the task's watchers (see listWatchers): whom comment and status notifications go to. */
export async function listWatcherIds(db: DbOrTx, taskId: string): Promise<string[]> {
  return (await listWatchers(db, taskId)).map((p) => p.id);
}

// ---- mail ----

/**
 * What deciding on a mail of `kind` to each of these people needs, in one statement: their address, whether the
 * account is active and its address proven, and whether they turned this kind of email off.
 */
export async function listMailRecipients(db: DbOrTx, userIds: readonly string[], kind: NotificationPreferenceKind & MailKind) {
  if (userIds.length === 0) return [];
  return db
    .select({
      id: users.id,
      email: users.email,
      isActive: users.isActive,
      emailVerified: users.emailVerified,
      wantsEmail: sql<boolean>`coalesce(${notificationPreferences.email}, true)`,
    })
    .from(users)
    .leftJoin(notificationPreferences, and(eq(notificationPreferences.userId, users.id), eq(notificationPreferences.kind, kind)))
    .where(inArray(users.id, [...userIds]));
}
