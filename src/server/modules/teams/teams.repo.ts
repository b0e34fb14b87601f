import { and, asc, desc, eq, getTableColumns, inArray, ne, not, sql } from 'drizzle-orm';
import type { EstimateUnit, InvitationRole, InvitationStatus, TeamRole } from '../../../domain/constants';
import type { DbOrTx } from '../../db/client';
import { isLiveInvitation } from '../../db/invitations';
import { deleteGuestRowsInTeam } from '../../db/project-guests';
import { teamInvitations, teamMembers, teams, users } from '../../db/schema';
import { containsText } from '../../db/search';
import { activeMembership, isActiveRow, seesPerson, visibleTeamIds } from '../../db/visibility';

export { getMemberRole } from '../../db/membership';

export type TeamRow = typeof teams.$inferSelect;
export type TeamMemberRow = typeof teamMembers.$inferSelect;
export type InvitationRow = typeof teamInvitations.$inferSelect;

export interface MemberWithUser {
  member: TeamMemberRow;
  user: { id: string; email: string; fullName: string; avatarUrl: string | null };
}

// ---- teams ----

export async function getOneById(db: DbOrTx, id: string): Promise<TeamRow | undefined> {
  const [row] = await db.select().from(teams).where(eq(teams.id, id));
  return row;
}

/** Teams where `userId` is an active member, newest first, optionally filtered by name/description. */
export async function listByMemberUserId(db: DbOrTx, userId: string, q?: string): Promise<TeamRow[]> {
  const needle = q?.trim();
  return db
    .select()
    .from(teams)
    .where(
      and(inArray(teams.id, visibleTeamIds(userId)), needle ? containsText(needle, teams.name, teams.description) : undefined),
    )
    .orderBy(desc(teams.createdAt), desc(teams.id));
}

export async function createOne(
  db: DbOrTx,
  values: { name: string; description: string | null; ownerId: string },
): Promise<TeamRow> {
  const [row] = await db.insert(teams).values(values).returning();
  return row!;
}

/**
 * Updates name and description and bumps the version. With `expectedVersion`, only when the row
 * still has that version (optimistic concurrency); returns undefined otherwise.
 */
export async function updateOne(
  db: DbOrTx,
  id: string,
  values: { name: string; description: string | null; estimateUnit?: EstimateUnit },
  expectedVersion?: number,
): Promise<TeamRow | undefined> {
  const [row] = await db
    .update(teams)
    .set({ ...values, version: sql`${teams.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(teams.id, id), expectedVersion === undefined ? undefined : eq(teams.version, expectedVersion)))
    .returning();
  return row;
}

/** The team's access rules (issue 41): only the ones given change; the version moves as with any edit of the team. */
export async function updateAccess(
  db: DbOrTx,
  id: string,
  values: { viewersMayComment?: boolean; requiresSso?: boolean },
): Promise<TeamRow | undefined> {
  const [row] = await db
    .update(teams)
    .set({ ...values, version: sql`${teams.version} + 1`, updatedAt: sql`now()` })
    .where(eq(teams.id, id))
    .returning();
  return row;
}

/**
 * Locks the team's row for the transaction (FOR UPDATE): changes of who owns it queue behind each other. Undefined
 * when there is no such team.
 */
export async function lockOneById(db: DbOrTx, id: string): Promise<TeamRow | undefined> {
  const [row] = await db.select().from(teams).where(eq(teams.id, id)).for('update');
  return row;
}

/** Records a new owner on the team's row (and bumps the version: a form opened before sees the change). */
export async function setOwner(db: DbOrTx, id: string, ownerId: string): Promise<void> {
  await db
    .update(teams)
    .set({ ownerId, version: sql`${teams.version} + 1`, updatedAt: sql`now()` })
    .where(eq(teams.id, id));
}

/**
 * Locks the user's row against an account deletion for the transaction (FOR SHARE: deletion updates it), and says
 * whether the account is still active.
 */
export async function lockActiveUser(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db.select({ isActive: users.isActive }).from(users).where(eq(users.id, userId)).for('share');
  return row?.isActive === true;
}

/** Deletes a team; members, invitations, projects and tasks go with it (foreign keys cascade). */
export async function deleteOne(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db.delete(teams).where(eq(teams.id, id)).returning({ id: teams.id });
  return rows.length > 0;
}

// ---- members ----

/**
 * The active members of these teams; with `viewerId`, only those the viewer sees (decision 0031: a guest sees the owner,
 * themselves, and the creators and assignees of tasks in their projects; everyone else sees all).
 */
export async function listMembersByTeamIds(db: DbOrTx, teamIds: string[], viewerId?: string): Promise<MemberWithUser[]> {
  if (teamIds.length === 0) return [];
  return db
    .select({
      member: teamMembers,
      user: { id: users.id, email: users.email, fullName: users.fullName, avatarUrl: users.avatarUrl },
    })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(
      and(
        inArray(teamMembers.teamId, teamIds),
        isActiveRow(),
        viewerId === undefined ? undefined : seesPerson(teamMembers.teamId, teamMembers.userId, viewerId, teamMembers.role),
      ),
    )
    .orderBy(asc(teamMembers.joinedAt), asc(teamMembers.id));
}

export async function getMemberInTeam(db: DbOrTx, teamId: string, memberId: string): Promise<MemberWithUser | undefined> {
  const [row] = await db
    .select({
      member: teamMembers,
      user: { id: users.id, email: users.email, fullName: users.fullName, avatarUrl: users.avatarUrl },
    })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.id, memberId)));
  return row;
}

/** Adds an active membership; does nothing when the user already belongs to the team. */
export async function addMember(
  db: DbOrTx,
  values: { teamId: string; userId: string; role: TeamRole },
): Promise<TeamMemberRow | undefined> {
  const [row] = await db
    .insert(teamMembers)
    .values({ ...values, status: 'active' })
    .onConflictDoNothing({ target: [teamMembers.teamId, teamMembers.userId] })
    .returning();
  return row;
}

/**
 * Sets a member's role. The owner's row is left alone (undefined) unless `ofOwner`: checked as it is written, so a
 * transfer of ownership that committed after the caller's check cannot be undone by a role change.
 */
export async function updateMemberRole(
  db: DbOrTx,
  teamId: string,
  memberId: string,
  role: TeamRole,
  ofOwner = false,
): Promise<TeamMemberRow | undefined> {
  const [row] = await db
    .update(teamMembers)
    .set({ role })
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.id, memberId), ofOwner ? undefined : ne(teamMembers.role, 'owner')))
    .returning();
  return row;
}

/**
 * Deletes a membership, never the owner's (checked as it is written: a team always keeps its owner), and with it the
 * person's guest rows of the team's projects (issue 41), whichever way they go (removed, left, LDAP, SCIM).
 */
export async function deleteMember(db: DbOrTx, teamId: string, memberId: string): Promise<boolean> {
  const rows = await db
    .delete(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.id, memberId), ne(teamMembers.role, 'owner')))
    .returning({ userId: teamMembers.userId });
  for (const row of rows) await deleteGuestRowsInTeam(db, teamId, row.userId);
  return rows.length > 0;
}

/** Is `email` the address of an active member of the team? */
export async function isMemberEmail(db: DbOrTx, teamId: string, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: teamMembers.id })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(activeMembership({ teamId }), eq(users.email, email.toLowerCase())));
  return Boolean(row);
}

// ---- invitations ----

/** An invitation, and whether it is live (db/invitations.ts: pending, recent, from someone who may still invite). */
export async function getInvitationById(
  db: DbOrTx,
  id: string,
  ttlDays: number,
): Promise<(InvitationRow & { isLive: boolean }) | undefined> {
  const [row] = await db
    .select({ ...getTableColumns(teamInvitations), isLive: isLiveInvitation(ttlDays) })
    .from(teamInvitations)
    .where(eq(teamInvitations.id, id));
  return row;
}

export async function getLiveInvitation(
  db: DbOrTx,
  teamId: string,
  email: string,
  ttlDays: number,
): Promise<InvitationRow | undefined> {
  const [row] = await db
    .select()
    .from(teamInvitations)
    .where(and(eq(teamInvitations.teamId, teamId), eq(teamInvitations.email, email.toLowerCase()), isLiveInvitation(ttlDays)));
  return row;
}

export async function listLiveByTeamId(db: DbOrTx, teamId: string, ttlDays: number): Promise<InvitationRow[]> {
  return db
    .select()
    .from(teamInvitations)
    .where(and(eq(teamInvitations.teamId, teamId), isLiveInvitation(ttlDays)))
    .orderBy(desc(teamInvitations.invitedAt), desc(teamInvitations.id));
}

export async function listLiveByEmail(db: DbOrTx, email: string, ttlDays: number): Promise<InvitationRow[]> {
  return db
    .select()
    .from(teamInvitations)
    .where(and(eq(teamInvitations.email, email.toLowerCase()), isLiveInvitation(ttlDays)))
    .orderBy(desc(teamInvitations.invitedAt), desc(teamInvitations.id));
}

/** Live invitations sent by `userId` (so to teams they still manage). */
export async function listLiveSentBy(db: DbOrTx, userId: string, ttlDays: number): Promise<InvitationRow[]> {
  return db
    .select()
    .from(teamInvitations)
    .where(and(eq(teamInvitations.invitedBy, userId), isLiveInvitation(ttlDays)))
    .orderBy(desc(teamInvitations.invitedAt), desc(teamInvitations.id));
}

export async function createInvitation(
  db: DbOrTx,
  values: {
    teamId: string;
    teamName: string;
    email: string;
    role: InvitationRole;
    invitedBy: string;
    inviterName: string;
    inviterEmail: string;
  },
): Promise<InvitationRow> {
  const [row] = await db
    .insert(teamInvitations)
    .values({ ...values, email: values.email.toLowerCase() })
    .returning();
  return row!;
}

/** Answers a live invitation; undefined when it is not (answered, cancelled, or dead meanwhile). */
export async function answerInvitation(
  db: DbOrTx,
  id: string,
  status: Exclude<InvitationStatus, 'pending'>,
  ttlDays: number,
): Promise<InvitationRow | undefined> {
  const [row] = await db
    .update(teamInvitations)
    .set({ status, respondedAt: sql`now()` })
    .where(and(eq(teamInvitations.id, id), isLiveInvitation(ttlDays)))
    .returning();
  return row;
}

export async function deletePendingInvitation(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db
    .delete(teamInvitations)
    .where(and(eq(teamInvitations.id, id), eq(teamInvitations.status, 'pending')))
    .returning({ id: teamInvitations.id });
  return rows.length > 0;
}

/**
 * Deletes the dead invitation (expired, or from someone who may no longer invite) that still holds
 * the one pending slot of team+email in the unique index, so a new invitation can take it.
 */
export async function deleteDeadInvitations(db: DbOrTx, teamId: string, email: string, ttlDays: number): Promise<void> {
  await db
    .delete(teamInvitations)
    .where(
      and(
        eq(teamInvitations.teamId, teamId),
        eq(teamInvitations.email, email.toLowerCase()),
        eq(teamInvitations.status, 'pending'),
        not(isLiveInvitation(ttlDays)),
      ),
    );
}

export async function deleteInvitationsByTeamAndEmail(db: DbOrTx, teamId: string, email: string): Promise<void> {
  await db.delete(teamInvitations).where(and(eq(teamInvitations.teamId, teamId), eq(teamInvitations.email, email.toLowerCase())));
}

/** Pending invitations carry the team's name; keep it current when the team is renamed. */
export async function renamePendingInvitations(db: DbOrTx, teamId: string, teamName: string): Promise<void> {
  await db
    .update(teamInvitations)
    .set({ teamName })
    .where(and(eq(teamInvitations.teamId, teamId), eq(teamInvitations.status, 'pending')));
}

export async function getMemberByUserId(db: DbOrTx, teamId: string, userId: string): Promise<TeamMemberRow | undefined> {
  const [row] = await db
    .select()
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
  return row;
}
