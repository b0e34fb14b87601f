import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { projectGuests, teamMembers, users } from '../../db/schema';
import { activeMembership } from '../../db/visibility';

/** Of `userIds`, the active members of the team, with their roles there. */
export async function listActiveRoles(db: DbOrTx, teamId: string, userIds: string[]) {
  if (userIds.length === 0) return [];
  return db
    .select({ userId: teamMembers.userId, role: teamMembers.role })
    .from(teamMembers)
    .where(and(activeMembership({ teamId }), inArray(teamMembers.userId, userIds)));
}

export async function listTeamIdsByUserId(db: DbOrTx, userId: string): Promise<string[]> {
  const rows = await db.select({ teamId: teamMembers.teamId }).from(teamMembers).where(activeMembership({ userId }));
  return rows.map((r) => r.teamId);
}

/** Of `userIds`, the one (if any) whose account has this email. */
export async function filterByEmail(db: DbOrTx, email: string, userIds: string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email.toLowerCase()), inArray(users.id, userIds)));
  return rows.map((r) => r.id);
}

/** Of `userIds` (guests of the project's team), those the project was given to (decision 0031). */
export async function listProjectGuestIds(db: DbOrTx, projectId: string, userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: projectGuests.userId })
    .from(projectGuests)
    .where(and(eq(projectGuests.projectId, projectId), inArray(projectGuests.userId, userIds)));
  return new Set(rows.map((r) => r.userId));
}
