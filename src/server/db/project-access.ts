import { and } from 'drizzle-orm';
import type { TeamRole } from '../../domain/constants';
import type { ErrorReason } from '../../domain/errors';
import { AppError } from '../lib/errors';
import type { DbOrTx } from './client';
import { teamMembers } from './schema';
import { activeMembership, seesProjectAs } from './visibility';

// The project guard of a read (decision 0031): a member of the team sees its projects, a guest only those given to them.

/** The caller's role in team `teamId` when they see project `projectId` of it, else null. */
export async function getProjectRole(db: DbOrTx, teamId: string, projectId: string, userId: string): Promise<TeamRole | null> {
  const [row] = await db
    .select({ role: teamMembers.role })
    .from(teamMembers)
    .where(and(activeMembership({ teamId, userId }), seesProjectAs(teamMembers.role, projectId, userId)));
  return row?.role ?? null;
}

/** As getProjectRole, but 404 (`notFound`) when the caller does not see the project: existence does not leak. */
export async function requireProjectMember(
  db: DbOrTx,
  teamId: string,
  projectId: string,
  userId: string,
  notFound: ErrorReason = 'project_not_found',
): Promise<TeamRole> {
  const role = await getProjectRole(db, teamId, projectId, userId);
  if (!role) throw new AppError(notFound);
  return role;
}
