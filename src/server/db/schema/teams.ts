/** Teams, their members and the invitations to join them. */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ESTIMATE_UNITS, INVITATION_ROLES, INVITATION_STATUSES, TEAM_ROLES } from '../../../domain/constants';
import { createdAt, id, oneOf, requiredRef, textOf, timestamptz, updatedAt } from './columns';
import { users } from './users';

/** The only membership status so far; a row with any other would not count as a member (db/visibility.ts). */
export const MEMBER_STATUSES = ['active'] as const;

export type MemberStatus = (typeof MEMBER_STATUSES)[number];

export const teams = pgTable(
  'teams',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description'),
    ownerId: requiredRef('owner_id', () => users.id, 'restrict'),
    version: integer('version').notNull().default(0),
    // How the team estimates tasks (issue 39): 'time' (minutes) or 'points'.
    estimateUnit: textOf('estimate_unit', ESTIMATE_UNITS).notNull().default('time'),
    /** May the team's viewers comment (issue 41)? The owner and admins choose. */
    viewersMayComment: boolean('viewers_may_comment').notNull().default(true),
    /** Does the team admit only members signed in by single sign-on (SAML)? The owner and admins choose. */
    requiresSso: boolean('requires_sso').notNull().default(false),
    /** The identity provider's `externalId` of the SCIM group this team is (issue 41); null otherwise. */
    scimExternalId: text('scim_external_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('teams_owner_idx').on(t.ownerId),
    check('teams_estimate_unit_check', oneOf(t.estimateUnit, ESTIMATE_UNITS)),
    // One team per SCIM group externalId; '' (a SCIM group the provider gave no externalId) may be many.
    uniqueIndex('teams_scim_external_id_key')
      .on(t.scimExternalId)
      .where(sql`${t.scimExternalId} is not null and ${t.scimExternalId} <> ''`),
  ],
);

export const teamMembers = pgTable(
  'team_members',
  {
    id: id(),
    teamId: requiredRef('team_id', () => teams.id, 'cascade'),
    userId: requiredRef('user_id', () => users.id, 'cascade'),
    role: textOf('role', TEAM_ROLES).notNull(),
    status: textOf('status', MEMBER_STATUSES).notNull().default('active'),
    joinedAt: timestamptz('joined_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('team_members_team_user_key').on(t.teamId, t.userId),
    index('team_members_user_idx').on(t.userId, t.status),
    check('team_members_role_check', oneOf(t.role, TEAM_ROLES)),
    check('team_members_status_check', oneOf(t.status, MEMBER_STATUSES)),
  ],
);

export const teamInvitations = pgTable(
  'team_invitations',
  {
    id: id(),
    teamId: requiredRef('team_id', () => teams.id, 'cascade'),
    teamName: text('team_name').notNull(),
    email: text('email').notNull(),
    role: textOf('role', INVITATION_ROLES).notNull().default('member'),
    status: textOf('status', INVITATION_STATUSES).notNull().default('pending'),
    invitedBy: requiredRef('invited_by', () => users.id, 'cascade'),
    inviterName: text('inviter_name').notNull(),
    inviterEmail: text('inviter_email').notNull(),
    invitedAt: timestamptz('invited_at').notNull().defaultNow(),
    respondedAt: timestamptz('responded_at'),
  },
  (t) => [
    uniqueIndex('team_invitations_one_pending_key').on(t.teamId, t.email).where(sql`${t.status} = 'pending'`),
    index('team_invitations_email_idx').on(t.email),
    // The partial unique index above covers pending rows only; the foreign key needs them all.
    index('team_invitations_team_idx').on(t.teamId),
    index('team_invitations_invited_by_idx').on(t.invitedBy),
    // In TEAM_ROLES' order, as migration 0000 wrote the check (INVITATION_ROLES is in the form's order).
    check(
      'team_invitations_role_check',
      oneOf(
        t.role,
        TEAM_ROLES.filter((r) => (INVITATION_ROLES as readonly string[]).includes(r)),
      ),
    ),
    check('team_invitations_status_check', oneOf(t.status, INVITATION_STATUSES)),
    check('team_invitations_email_lower_check', sql`${t.email} = lower(${t.email})`),
  ],
);
