import { z } from 'zod';
import { ESTIMATE_UNITS, INVITATION_ROLES, INVITATION_STATUSES, LIMITS, TEAM_ROLES } from '../constants';
import { MSG } from '../messages';
import { emailInput, isoDateTime, optionalText, userSummary, uuid, versionField } from './common';

export const teamName = z
  .string({ error: MSG.teamNameRequired })
  .trim()
  .min(1, MSG.teamNameRequired)
  .min(LIMITS.teamNameMin, MSG.teamNameMin)
  .max(LIMITS.nameMax);

export const createTeamInput = z.object({ name: teamName, description: optionalText(LIMITS.descriptionMax) }).strict();
export type CreateTeamInput = z.infer<typeof createTeamInput>;

export const updateTeamInput = z
  .object({
    name: teamName,
    description: optionalText(LIMITS.descriptionMax),
    /** How the team estimates tasks (issue 39); missing leaves it. Owners and admins only, as the rest. */
    estimateUnit: z.enum(ESTIMATE_UNITS).optional(),
    version: versionField,
  })
  .strict();
export type UpdateTeamInput = z.infer<typeof updateTeamInput>;

export const teamMemberDto = z.object({
  id: uuid,
  userId: uuid,
  role: z.enum(TEAM_ROLES),
  status: z.literal('active'),
  joinedAt: isoDateTime,
  user: userSummary,
});
export type TeamMemberDto = z.infer<typeof teamMemberDto>;

export const teamDto = z.object({
  id: uuid,
  name: z.string(),
  description: z.string().nullable(),
  ownerId: uuid,
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  version: z.number().int(),
  /** How the team estimates tasks (issue 39): 'time' (hours and minutes) or 'points'. */
  estimateUnit: z.enum(ESTIMATE_UNITS),
  /** May the team's viewers comment (issue 41)? */
  viewersMayComment: z.boolean(),
  /** Does the team admit only members signed in by single sign-on (issue 41)? */
  requiresSso: z.boolean(),
  /** The team requires SSO and the caller's session did not come from it: 'This team requires single sign-on.' */
  ssoLocked: z.boolean(),
  /** The caller's role in this team. */
  myRole: z.enum(TEAM_ROLES),
  members: z.array(teamMemberDto),
});
export type TeamDto = z.infer<typeof teamDto>;

/** `PATCH /api/teams/:id/access` (issue 41): the team's access rules, owner and admins only; a missing field is left. */
export const updateTeamAccessInput = z
  .object({ viewersMayComment: z.boolean().optional(), requiresSso: z.boolean().optional() })
  .strict()
  .refine((v) => v.viewersMayComment !== undefined || v.requiresSso !== undefined, { error: 'Nothing to change' });
export type UpdateTeamAccessInput = z.infer<typeof updateTeamAccessInput>;

/** A guest given a project (`GET/POST /api/projects/:id/guests`, `DELETE /api/projects/:id/guests/:userId`; issue 41). */
export const projectGuestDto = z.object({ userId: uuid, user: userSummary, addedAt: isoDateTime });
export type ProjectGuestDto = z.infer<typeof projectGuestDto>;
export const projectGuestListDto = z.object({ guests: z.array(projectGuestDto) });
export const addProjectGuestInput = z.object({ userId: uuid }).strict();
export type AddProjectGuestInput = z.infer<typeof addProjectGuestInput>;
export const projectGuestParams = z.object({ id: uuid, userId: uuid });

export const listTeamsQuery = z.object({ q: z.string().max(200).optional() });

export const inviteInput = z.object({ email: emailInput, role: z.enum(INVITATION_ROLES).default('member') }).strict();
export type InviteInput = z.infer<typeof inviteInput>;

export const changeRoleInput = z.object({ role: z.enum(INVITATION_ROLES) }).strict();
export type ChangeRoleInput = z.infer<typeof changeRoleInput>;

export const invitationDto = z.object({
  id: uuid,
  teamId: uuid,
  teamName: z.string(),
  email: z.string(),
  role: z.enum(INVITATION_ROLES),
  status: z.enum(INVITATION_STATUSES),
  invitedBy: uuid,
  inviterName: z.string(),
  inviterEmail: z.string(),
  invitedAt: isoDateTime,
  respondedAt: isoDateTime.nullable(),
});
export type InvitationDto = z.infer<typeof invitationDto>;

/** `proof`: the one the invitation's emailed link carries (it proves the invited address for this invitation). */
export const respondInvitationInput = z.object({ accept: z.boolean(), proof: z.string().min(1).max(200).optional() }).strict();
export type RespondInvitationInput = z.infer<typeof respondInvitationInput>;

export const teamMemberParams = z.object({ id: uuid, memberId: uuid });

/** POST /api/teams/:id/transfer-ownership: the member (their membership id) who becomes the owner. */
export const transferOwnershipInput = z.object({ memberId: uuid }).strict();
export type TransferOwnershipInput = z.infer<typeof transferOwnershipInput>;

/** The texts of the ownership transfer (on the team's member list). */
export const TEAM_TRANSFER_MSG = {
  action: 'Transfer ownership',
  title: 'Transfer Ownership',
  confirm: (name: string, team: string) =>
    `Make ${name} the owner of "${team}"? You will become an admin, and only the new owner can edit or delete the team, or transfer it again.`,
  confirmLabel: 'Transfer',
  done: (name: string) => `${name} is now the team owner`,
  failed: 'Failed to transfer ownership',
} as const;

/**
 * GET /api/invitations: `invitation` and `proof`, from the invitation's emailed link. With EMAIL_VERIFICATION=required
 * an account whose address is not verified sees only the invitation its link proves (as accepting needs).
 */
export const myInvitationsQuery = z.object({ invitation: z.string().max(100).optional(), proof: z.string().max(200).optional() });
export type MyInvitationsQuery = z.infer<typeof myInvitationsQuery>;

export const myInvitationsDto = z.object({
  received: z.array(invitationDto),
  sent: z.array(invitationDto),
});
export type MyInvitationsDto = z.infer<typeof myInvitationsDto>;
