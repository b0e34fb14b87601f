import type { TeamRole } from '../../domain/constants';
import type { ErrorReason } from '../../domain/errors';
import { canContribute } from '../../domain/permissions';
import { AppError } from '../lib/errors';
import type { DbOrTx } from './client';
import { teamMembers } from './schema';
import { requireNotSsoLocked } from './sso-lock';
import { activeMembership } from './visibility';

// The membership guards: below the modules (every module that serves a team's data asks them), above the schema.

/** The caller's role in a team, or null when they are not an active member. */
export async function getMemberRole(db: DbOrTx, teamId: string, userId: string): Promise<TeamRole | null> {
  const [row] = await db.select({ role: teamMembers.role }).from(teamMembers).where(activeMembership({ teamId, userId }));
  return row?.role ?? null;
}

/**
 * Requires an active membership. A team the caller cannot see answers 404, never 403,
 * so existence does not leak.
 */
export async function requireTeamMember(
  db: DbOrTx,
  teamId: string,
  userId: string,
  notFound: ErrorReason = 'team_not_found',
): Promise<TeamRole> {
  const role = await getMemberRole(db, teamId, userId);
  if (!role) {
    await requireNotSsoLocked(db, teamId, userId);
    throw new AppError(notFound);
  }
  return role;
}

/**
 * Requires a role the domain's predicate `can` allows (domain/permissions.ts): 404 for a
 * stranger, 403 (`denied`) for a member whose role may not.
 */
export async function requireTeamRight(
  db: DbOrTx,
  teamId: string,
  userId: string,
  can: (role: TeamRole) => boolean,
  denied: ErrorReason,
  notFound: ErrorReason = 'team_not_found',
): Promise<TeamRole> {
  const role = await requireTeamMember(db, teamId, userId, notFound);
  if (!can(role)) throw new AppError(denied);
  return role;
}

/**
 * Requires a role that changes the team's work in general (domain `canContribute`: members and up): 404 for a stranger,
 * 403 `read_only_role` for a viewer or a guest (issue 41).
 */
export function requireContributor(
  db: DbOrTx,
  teamId: string,
  userId: string,
  notFound: ErrorReason = 'team_not_found',
): Promise<TeamRole> {
  return requireTeamRight(db, teamId, userId, canContribute, 'read_only_role', notFound);
}
