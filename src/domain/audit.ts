import type { AuditAction } from './constants';

/*
 * The audit log's constants and labels, without zod: the admin panel and team settings share the component that shows
 * them, so what it imports goes into the chunk every page loads ('shared'); schemas/audit.ts (and zod) must not.
 */

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
  'team.imported': 'Team imported',
  'project.imported': 'Tasks imported',
  'webhook.created': 'Webhook added',
  'webhook.updated': 'Webhook changed',
  'webhook.deleted': 'Webhook deleted',
  'custom_field.created': 'Custom field added',
  'custom_field.updated': 'Custom field changed',
  'custom_field.deleted': 'Custom field deleted',
  'project.share_enabled': 'Public link turned on',
  'project.share_disabled': 'Public link turned off',
  'project.share_reset': 'Public link reset',
  'form.created': 'Request form added',
  'form.updated': 'Request form changed',
  'form.deleted': 'Request form deleted',
  'project.intake_enabled': 'Email intake turned on',
  'project.intake_disabled': 'Email intake turned off',
  'project.intake_reset': 'Email intake address reset',
  'team.access_changed': 'Access rules changed',
  'project.guest_added': 'Guest added to a project',
  'project.guest_removed': 'Guest removed from a project',
  'team.scim_provisioned': 'Team provisioned by SCIM',
  'team.scim_unlinked': 'Team unlinked from SCIM',
  'admin.user_deactivated': 'User deactivated',
  'admin.user_activated': 'User reactivated',
  'admin.role_set': 'System role set',
  'admin.sso_updated': 'Single sign-on settings saved',
  'admin.user_provisioned': 'Account provisioned by SCIM',
} as const satisfies Record<AuditAction, string>;

export { TEAM_AUDIT_ACTIONS } from './constants';
