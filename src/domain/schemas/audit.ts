import { z } from 'zod';
import { AUDIT_ACTIONS, type AuditAction } from '../constants';
import { uuid } from './common';

/** How many rows one page of the audit log holds at most, and by default. */
export const AUDIT_PAGE = { max: 200, default: 50 } as const;

/** How many rows one CSV export holds at most (newest first); a longer span is exported in parts by `to`. */
export const AUDIT_CSV_MAX_ROWS = 50_000;

/** What each action reads as (the admin panel, the team settings page, and the CSV's `action_label` column). */
export const AUDIT_ACTION_LABELS = {
  'auth.sign_in': 'Signed in',
  'auth.sign_in_failed': 'Sign-in failed',
  'auth.password_changed': 'Password changed',
  'auth.password_reset': 'Password reset by link',
  'auth.email_changed': 'Email changed',
  'auth.two_factor_enabled': 'Two-factor sign-in turned on',
  'auth.two_factor_disabled': 'Two-factor sign-in turned off',
  'api_token.created': 'API token created',
  'api_token.revoked': 'API token revoked',
  'team.role_changed': 'Member role changed',
  'team.member_added': 'Member added',
  'team.member_removed': 'Member removed',
  'team.deleted': 'Team deleted',
  'invitation.sent': 'Invitation sent',
  'invitation.accepted': 'Invitation accepted',
  'invitation.cancelled': 'Invitation cancelled',
  'project.deleted': 'Project deleted',
  'webhook.created': 'Webhook added',
  'webhook.updated': 'Webhook changed',
  'webhook.deleted': 'Webhook deleted',
  'admin.user_deactivated': 'User deactivated',
  'admin.user_activated': 'User reactivated',
  'admin.role_set': 'System role set',
} as const satisfies Record<AuditAction, string>;

/** The actions a team's log can hold (rows with its teamId): what the team page's action filter offers. */
export const TEAM_AUDIT_ACTIONS = [
  'team.role_changed',
  'team.member_added',
  'team.member_removed',
  'team.deleted',
  'invitation.sent',
  'invitation.accepted',
  'invitation.cancelled',
  'project.deleted',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
] as const satisfies readonly AuditAction[];

const instant = z.iso.datetime({ offset: true });

/**
 * GET /api/admin/audit, /api/teams/:id/audit (and their .csv): newest first. `actorId` matches the actor exactly;
 * `actor` is text found in the actor's email (a failed sign-in's attempted address included). `from` is inclusive,
 * `to` exclusive. `before` is the id of the last row of the previous page (keyset pagination).
 */
export const auditQuery = z.object({
  actorId: uuid.optional(),
  actor: z.string().trim().max(200).optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  from: instant.optional(),
  to: instant.optional(),
  before: z
    .string()
    .regex(/^[1-9][0-9]{0,17}$/, 'before must be a row id')
    .optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE.max).optional(),
});
export type AuditQuery = z.infer<typeof auditQuery>;

export const auditEntryDto = z.object({
  /** The row's id (a bigserial, as text): the `before` cursor of the next page. */
  id: z.string(),
  createdAt: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  ip: z.string().nullable(),
  teamId: z.string().nullable(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  targetLabel: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntryDto = z.infer<typeof auditEntryDto>;

export const auditPageDto = z.object({
  entries: z.array(auditEntryDto),
  /** The `before` of the next page; null when this page is the last. */
  nextCursor: z.string().nullable(),
});
export type AuditPageDto = z.infer<typeof auditPageDto>;

/** The CSV export's columns, in order (one record per row, newest first). */
export const AUDIT_CSV_HEADER = [
  'id',
  'time',
  'action',
  'action_label',
  'actor_id',
  'actor_email',
  'ip',
  'team_id',
  'target_type',
  'target_id',
  'target_label',
  'details',
] as const;

/** One row as its CSV record (AUDIT_CSV_HEADER's order). */
export function auditCsvRecord(entry: AuditEntryDto): (string | null)[] {
  return [
    entry.id,
    entry.createdAt,
    entry.action,
    AUDIT_ACTION_LABELS[entry.action],
    entry.actorId,
    entry.actorEmail,
    entry.ip,
    entry.teamId,
    entry.targetType,
    entry.targetId,
    entry.targetLabel,
    JSON.stringify(entry.details),
  ];
}
