import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { TEAM_ROLES } from '../../domain/constants';
import { canManageMembers } from '../../domain/permissions';
import { teamInvitations } from './schema';
import { activeRole } from './visibility';

/** The roles that may invite: the domain's rule (canManageMembers), as a list SQL can test. */
const INVITING_ROLES = TEAM_ROLES.filter((role) => canManageMembers(role));

/**
 * The one rule of a live invitation: pending, sent less than `ttlDays` days ago, by someone who may
 * still invite to its team (an active member whose role passes canManageMembers). Anything else is
 * dead: it cannot be answered, is listed nowhere, and gives way to a new invitation. Computed at
 * each read, so a changed INVITATION_TTL_DAYS or a demoted inviter counts at once, with no job to run.
 */
export function isLiveInvitation(ttlDays: number): SQL<boolean> {
  const live = and(
    eq(teamInvitations.status, 'pending'),
    sql`${teamInvitations.invitedAt} > now() - make_interval(days => ${ttlDays}::int)`,
    inArray(activeRole(teamInvitations.teamId, teamInvitations.invitedBy), INVITING_ROLES),
  );
  // An inviter with no membership makes the role null: false, never null, so `not (…)` means dead.
  return sql<boolean>`coalesce(${live}, false)`;
}
