import type { TeamRole } from '../../../domain/constants';
import type { ErrorReason } from '../../../domain/errors';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../lib/errors';
import { getMemberRole } from './teams.repo';

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
  if (!role) throw new AppError(notFound);
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
