import type { InvitationDto, TeamDto, TeamMemberDto } from '../../../domain/schemas/team';
import { sortMembers } from '../../../domain/teams';
import { isSsoLockedCaller } from '../../db/sso-lock';
import { toUserSummary } from '../users';
import type { InvitationRow, MemberWithUser, TeamRow } from './teams.repo';

export function toTeamMemberDto({ member, user }: MemberWithUser): TeamMemberDto {
  return {
    id: member.id,
    userId: member.userId,
    role: member.role,
    status: member.status,
    joinedAt: member.joinedAt.toISOString(),
    user: toUserSummary(user),
  };
}

/** A team with its members, as seen by `viewerId` (who must be one of them). */
export function toTeamDto(team: TeamRow, members: MemberWithUser[], viewerId: string): TeamDto {
  const dtos = sortMembers(members.map(toTeamMemberDto));
  const me = dtos.find((m) => m.userId === viewerId);
  return {
    id: team.id,
    name: team.name,
    description: team.description,
    ownerId: team.ownerId,
    createdAt: team.createdAt.toISOString(),
    updatedAt: team.updatedAt.toISOString(),
    version: team.version,
    estimateUnit: team.estimateUnit,
    viewersMayComment: team.viewersMayComment,
    requiresSso: team.requiresSso,
    // Seen from a session that did not come from SAML: its content stays closed (db/sso-lock.ts).
    ssoLocked: team.requiresSso && isSsoLockedCaller(),
    myRole: me?.role ?? 'member',
    members: dtos,
  };
}

export function toInvitationDto(row: InvitationRow): InvitationDto {
  return {
    id: row.id,
    teamId: row.teamId,
    teamName: row.teamName,
    email: row.email,
    role: row.role,
    status: row.status,
    invitedBy: row.invitedBy,
    inviterName: row.inviterName,
    inviterEmail: row.inviterEmail,
    invitedAt: row.invitedAt.toISOString(),
    respondedAt: row.respondedAt ? row.respondedAt.toISOString() : null,
  };
}
