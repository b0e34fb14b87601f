import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { NotificationType } from '../../../domain/constants';
import type { DbOrTx } from '../../db/client';
import { isLiveInvitation } from '../../db/invitations';
import { notifications, projects, teamInvitations, teamMembers, teams, users } from '../../db/schema';
import { projectTotals } from '../../db/task-counters';
import { activeMembership, seesProjectAs } from '../../db/visibility';

export type NotificationRow = typeof notifications.$inferSelect;

export interface NewNotification {
  userId: string;
  type: NotificationType;
  title: string;
  message: string;
  data: Record<string, string | number>;
}

/**
 * One page of the user's notifications with the counts of them all, from one statement (one
 * snapshot): a notification committed meanwhile is either in both the page and the counts or in
 * neither. The counts ride on the rows as window aggregates, so an empty page carries none.
 */
export async function listPageByUserId(
  db: DbOrTx,
  userId: string,
  limit: number,
  offset: number,
): Promise<{ rows: NotificationRow[]; counts: { total: number; unread: number } | null }> {
  const page = await db
    .select({
      row: notifications,
      total: sql<number>`count(*) over ()`.mapWith(Number),
      unread: sql<number>`count(*) filter (where ${notifications.isRead} = false) over ()`.mapWith(Number),
    })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit)
    .offset(offset);
  const first = page[0];
  return { rows: page.map((p) => p.row), counts: first ? { total: first.total, unread: first.unread } : null };
}

export async function countByUserId(db: DbOrTx, userId: string): Promise<{ total: number; unread: number }> {
  const [row] = await db
    .select({
      total: count(),
      unread: sql<number>`count(*) filter (where ${notifications.isRead} = false)`.mapWith(Number),
    })
    .from(notifications)
    .where(eq(notifications.userId, userId));
  return { total: Number(row?.total ?? 0), unread: Number(row?.unread ?? 0) };
}

export async function createMany(db: DbOrTx, rows: NewNotification[]): Promise<NotificationRow[]> {
  if (rows.length === 0) return [];
  return db.insert(notifications).values(rows).returning();
}

/** Marks one of the user's notifications read; false when it is not theirs (or does not exist). */
export async function markOneRead(db: DbOrTx, id: string, userId: string): Promise<boolean> {
  const rows = await db
    .update(notifications)
    .set({ isRead: true })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  return rows.length > 0;
}

export async function markAllRead(db: DbOrTx, userId: string): Promise<void> {
  await db
    .update(notifications)
    .set({ isRead: true })
    .where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)));
}

/**
 * Which of `userIds` are active members of the team, each row with the actor's name and the kinds the member turned
 * off in-app (Settings → Notifications): what a task notification needs, in one statement (no rows: nobody to notify,
 * and no name needed).
 */
export async function activeMembersWithActorName(
  db: DbOrTx,
  teamId: string,
  projectId: string,
  userIds: string[],
  actorId: string,
) {
  if (userIds.length === 0) return [];
  return db
    .select({
      userId: teamMembers.userId,
      actorName: sql<string | null>`(select u.full_name from users u where u.id = ${actorId})`,
      mutedKinds: sql<
        string[]
      >`array(select p.kind from notification_preferences p where p.user_id = "team_members"."user_id" and not p.in_app)`,
    })
    .from(teamMembers)
    .where(
      and(
        activeMembership({ teamId }),
        inArray(teamMembers.userId, userIds),
        seesProjectAs(teamMembers.role, projectId, teamMembers.userId),
      ),
    );
}

/** The team's active members who see project `projectId` (decision 0031: of its guests, those it was given to). */
export async function listActiveMemberIds(db: DbOrTx, teamId: string, projectId: string): Promise<string[]> {
  const rows = await db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .where(and(activeMembership({ teamId }), seesProjectAs(teamMembers.role, projectId, teamMembers.userId)));
  return rows.map((r) => r.userId);
}

export async function getUserName(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db.select({ fullName: users.fullName }).from(users).where(eq(users.id, userId));
  return row?.fullName ?? null;
}

/** The active account with this address, and whether the address is verified. */
export async function getActiveUserByEmail(db: DbOrTx, email: string): Promise<{ id: string; emailVerified: boolean } | null> {
  const [row] = await db
    .select({ id: users.id, emailVerified: users.emailVerified })
    .from(users)
    .where(and(eq(users.email, email.toLowerCase()), eq(users.isActive, true)));
  return row ?? null;
}

export async function getActiveUserIdByEmail(db: DbOrTx, email: string): Promise<string | null> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email.toLowerCase()), eq(users.isActive, true)));
  return row?.id ?? null;
}

export async function getProjectInTeam(db: DbOrTx, projectId: string, teamId: string) {
  const totals = projectTotals(db, projects.id);
  const [row] = await db
    .select({ id: projects.id, name: projects.name, progress: totals.progress })
    .from(projects)
    .leftJoinLateral(totals, sql`true`)
    .where(and(eq(projects.id, projectId), eq(projects.teamId, teamId)));
  return row;
}

export async function getPendingInvitation(db: DbOrTx, invitationId: string, teamId: string) {
  const [row] = await db
    .select()
    .from(teamInvitations)
    .where(and(eq(teamInvitations.id, invitationId), eq(teamInvitations.teamId, teamId), eq(teamInvitations.status, 'pending')));
  return row;
}

/** Live invitations addressed to an email (db/invitations.ts), for teams that still exist. */
export async function listLiveInvitationsByEmail(db: DbOrTx, email: string, ttlDays: number) {
  return db
    .select({
      id: teamInvitations.id,
      teamId: teamInvitations.teamId,
      teamName: teams.name,
      inviterName: teamInvitations.inviterName,
    })
    .from(teamInvitations)
    .innerJoin(teams, eq(teams.id, teamInvitations.teamId))
    .where(and(eq(teamInvitations.email, email.toLowerCase()), isLiveInvitation(ttlDays)));
}
