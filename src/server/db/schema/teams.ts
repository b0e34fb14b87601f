/** Teams, their members and the invitations to join them. */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import {
  INVITATION_ROLES,
  INVITATION_STATUSES,
  type InvitationRole,
  type InvitationStatus,
  TEAM_ROLES,
  type TeamRole,
} from '../../../domain/constants';
import { createdAt, id, oneOf, updatedAt } from './columns';
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
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('teams_owner_idx').on(t.ownerId)],
);

export const teamMembers = pgTable(
  'team_members',
  {
    id: id(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<TeamRole>().notNull(),
    status: text('status').$type<MemberStatus>().notNull().default('active'),
    joinedAt: timestamp('joined_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
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
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    teamName: text('team_name').notNull(),
    email: text('email').notNull(),
    role: text('role').$type<InvitationRole>().notNull().default('member'),
    status: text('status').$type<InvitationStatus>().notNull().default('pending'),
    invitedBy: uuid('invited_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    inviterName: text('inviter_name').notNull(),
    inviterEmail: text('inviter_email').notNull(),
    invitedAt: timestamp('invited_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    respondedAt: timestamp('responded_at', { withTimezone: true, mode: 'date' }),
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
