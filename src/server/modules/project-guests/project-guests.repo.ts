import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { projectGuests, projects, teamMembers, users } from '../../db/schema';
import { activeMembership, activeRole, seesProject } from '../../db/visibility';

/**
 * The project's team, the caller's active role there (null: not a member) and whether they see the project (a guest
 * only the projects given to them); undefined when there is no such project. With `lock`, the project row is held
 * (share) until the transaction ends: it neither goes nor moves to another team under a guest being added.
 */
export async function getProjectAccess(db: DbOrTx, projectId: string, userId: string, lock = false) {
  const query = db
    .select({
      teamId: projects.teamId,
      callerRole: activeRole(projects.teamId, userId),
      callerSees: seesProject(projects.teamId, projects.id, userId),
    })
    .from(projects)
    .where(eq(projects.id, projectId));
  const [row] = lock ? await query.for('share') : await query;
  return row;
}

export type ProjectAccess = NonNullable<Awaited<ReturnType<typeof getProjectAccess>>>;

const guestColumns = {
  userId: projectGuests.userId,
  createdAt: projectGuests.createdAt,
  id: users.id,
  email: users.email,
  fullName: users.fullName,
  avatarUrl: users.avatarUrl,
};

export type GuestRow = { userId: string; createdAt: Date; id: string; email: string; fullName: string; avatarUrl: string | null };

/** The project's guests, the first added first. */
export async function listByProjectId(db: DbOrTx, projectId: string): Promise<GuestRow[]> {
  return db
    .select(guestColumns)
    .from(projectGuests)
    .innerJoin(users, eq(users.id, projectGuests.userId))
    .where(eq(projectGuests.projectId, projectId))
    .orderBy(asc(projectGuests.createdAt), asc(users.email));
}

export async function getOne(db: DbOrTx, projectId: string, userId: string): Promise<GuestRow | undefined> {
  const [row] = await db
    .select(guestColumns)
    .from(projectGuests)
    .innerJoin(users, eq(users.id, projectGuests.userId))
    .where(and(eq(projectGuests.projectId, projectId), eq(projectGuests.userId, userId)));
  return row;
}

/** `userId`'s active role in team `teamId` (null: not an active member), their row held (share) against a removal. */
export async function lockMemberRole(db: DbOrTx, teamId: string, userId: string) {
  const [row] = await db
    .select({ role: teamMembers.role, email: users.email })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(activeMembership({ teamId, userId }))
    .for('share', { of: teamMembers });
  return row;
}

/** Adds the guest; false when they were one already. */
export async function insertOne(db: DbOrTx, values: { projectId: string; userId: string; addedBy: string }): Promise<boolean> {
  const rows = await db.insert(projectGuests).values(values).onConflictDoNothing().returning({ userId: projectGuests.userId });
  return rows.length > 0;
}

export async function deleteOne(db: DbOrTx, projectId: string, userId: string): Promise<boolean> {
  const rows = await db
    .delete(projectGuests)
    .where(and(eq(projectGuests.projectId, projectId), eq(projectGuests.userId, userId)))
    .returning({ userId: projectGuests.userId });
  return rows.length > 0;
}
