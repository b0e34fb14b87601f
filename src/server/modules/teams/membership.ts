import { and, eq } from 'drizzle-orm';
import type { TeamRole } from '../../../domain/constants';
import { isManager } from '../../../domain/permissions';
import type { DbOrTx } from '../../db/client';
import { teamMembers } from '../../db/schema';
import { AppError } from '../../lib/errors';

/** The caller's active role in a team, or null when they are not a member. */
export async function getMemberRole(db: DbOrTx, teamId: string, userId: string): Promise<TeamRole | null> {
  const [row] = await db
    .select({ role: teamMembers.role })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId), eq(teamMembers.status, 'active')));
  return (row?.role as TeamRole | undefined) ?? null;
}

/**
 * Requires an active membership. A team the caller cannot see answers 404, never 403,
 * so existence does not leak.
 */
export async function requireTeamMember(db: DbOrTx, teamId: string, userId: string, notFoundMessage = 'Team not found'): Promise<TeamRole> {
  const role = await getMemberRole(db, teamId, userId);
  if (!role) throw new AppError('not_found', notFoundMessage);
  return role;
}

/** Requires owner or admin: 404 for a stranger, 403 (with `message`) for a plain member. */
export async function requireTeamManager(db: DbOrTx, teamId: string, userId: string, message: string, notFoundMessage = 'Team not found'): Promise<TeamRole> {
  const role = await requireTeamMember(db, teamId, userId, notFoundMessage);
  if (!isManager(role)) throw new AppError('permission_denied', message);
  return role;
}
