/**
 * Every error the API answers with, in one table (DESIGN.md "API conventions").
 *
 * An error has a `code`, the class a program branches on (`not_found`, `conflict`…, the
 * fixed list DESIGN.md gives, each with one HTTP status), and a `reason`, the specific
 * failure (`already_member`, `stale_edit`…), each with the text a person reads. The server
 * takes the status and the message from here; the client picks its text by reason from here,
 * never from the body's English. A new reason without a code and a message fails the typecheck.
 */
import { CUSTOM_FIELD_ERRORS } from './custom-field-errors';
import { FORM_ERRORS } from './form-errors';
import { INTAKE_ERRORS } from './intake-errors';
import { MSG } from './messages';
import { SHARE_NOT_FOUND } from './outside-texts';
import { TASK_STRUCTURE_ERRORS } from './task-structure-errors';
import { WORKFLOW_ERRORS } from './workflow-errors';

/** code -> HTTP status. */
export const ERROR_STATUS = {
  validation_failed: 400,
  invalid_credentials: 400,
  invalid_grant: 400,
  unauthenticated: 401,
  permission_denied: 403,
  not_found: 404,
  conflict: 409,
  /** A public link that existed and was closed (a request form): issue 40. */
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

interface ReasonSpec {
  code: ErrorCode;
  message: string;
  /** Says nothing a person can act on (a bad request, a crash): the client shows its own "Failed to …" text. */
  generic?: true;
}

/** reason -> its code and its text. Every code is also a reason of its own (the general case). */
export const ERRORS = {
  // the general case of each code
  validation_failed: { code: 'validation_failed', message: 'Please check the highlighted fields.', generic: true },
  invalid_credentials: { code: 'invalid_credentials', message: MSG.invalidCredentials },
  invalid_grant: { code: 'invalid_grant', message: 'Invalid or expired refresh token' },
  unauthenticated: { code: 'unauthenticated', message: 'Authentication required' },
  permission_denied: { code: 'permission_denied', message: 'You do not have permission to do this' },
  not_found: { code: 'not_found', message: 'Not found' },
  conflict: { code: 'conflict', message: 'This item already exists' },
  gone: { code: 'gone', message: 'This link is closed' },
  payload_too_large: { code: 'payload_too_large', message: 'That is too much to save at once' },
  unsupported_media_type: { code: 'unsupported_media_type', message: 'Content type must be application/json', generic: true },
  rate_limited: { code: 'rate_limited', message: 'Too many requests. Please try again later.' },
  internal: { code: 'internal', message: 'Internal server error', generic: true },
  unavailable: { code: 'unavailable', message: 'Service temporarily unavailable' },

  // requests
  bad_request: { code: 'validation_failed', message: 'Malformed request', generic: true },
  invalid_value: { code: 'validation_failed', message: 'Invalid reference or value', generic: true },

  // sign-in and sessions
  session_invalid: { code: 'unauthenticated', message: 'Invalid or expired session' },
  account_deactivated: { code: 'invalid_credentials', message: 'This account has been deactivated' },
  oidc_code_expired: { code: 'invalid_grant', message: 'This sign-in has expired. Please try again.' },
  oidc_code_wrong_browser: {
    code: 'invalid_grant',
    message: 'This sign-in was started in another browser. Please sign in again here.',
  },
  oidc_error_unverified: { code: 'validation_failed', message: 'This sign-in error did not come from Crewboard', generic: true },
  email_taken: { code: 'conflict', message: MSG.emailTaken },
  password_too_common: { code: 'validation_failed', message: MSG.passwordTooCommon },
  // two-factor sign-in: the password was right, a code is asked next (the answer carries an mfa_token)
  mfa_required: { code: 'unauthenticated', message: 'Enter the authentication code from your authenticator app.' },
  mfa_code_invalid: { code: 'invalid_credentials', message: 'Invalid authentication code. Please try again.' },
  mfa_token_invalid: { code: 'invalid_grant', message: 'This sign-in has expired. Please sign in again.' },
  // directory sign-in (LDAP, issue 41)
  directory_account_disabled: {
    code: 'invalid_credentials',
    message: 'Your directory account is disabled. Please contact your administrator.',
  },
  directory_link_unverified: {
    code: 'invalid_credentials',
    message:
      'An account with this email already exists and its address is not verified yet. Sign in with your password and verify your email address first; then you can sign in with your directory account.',
  },
  directory_no_email: {
    code: 'invalid_credentials',
    message: 'Your directory account has no email address. Please contact your administrator.',
  },
  local_passwords_off: {
    code: 'permission_denied',
    message: 'This server does not create password accounts. Sign in with your directory account or single sign-on.',
  },
  directory_unavailable: { code: 'unavailable', message: 'The directory cannot be reached right now. Please try again later.' },
  mfa_already_enabled: { code: 'conflict', message: 'Two-factor authentication is already on.' },
  mfa_not_enabled: { code: 'conflict', message: 'Two-factor authentication is not on.' },
  mfa_setup_missing: { code: 'conflict', message: 'Start the two-factor setup again.' },
  // A verification or reset link that is unknown, spent or expired (one answer for the three: nothing to probe).
  link_invalid: { code: 'invalid_grant', message: MSG.linkInvalid },
  email_already_verified: { code: 'conflict', message: MSG.emailAlreadyVerified },

  // not found (a resource the caller may not see answers these too: no existence leaks)
  user_not_found: { code: 'not_found', message: 'User not found' },
  team_not_found: { code: 'not_found', message: MSG.teamNotFound },
  project_not_found: { code: 'not_found', message: 'Project not found' },
  task_not_found: { code: 'not_found', message: 'Task not found' },
  member_not_found: { code: 'not_found', message: MSG.memberNotFound },
  invitation_not_found: { code: 'not_found', message: MSG.invitationNotFound },
  notification_not_found: { code: 'not_found', message: 'Notification not found' },
  session_not_found: { code: 'not_found', message: 'Session not found or already signed out' },
  comment_not_found: { code: 'not_found', message: 'Comment not found' },
  attachment_not_found: { code: 'not_found', message: 'File not found' },
  checklist_item_not_found: { code: 'not_found', message: 'Checklist item not found' },
  view_not_found: { code: 'not_found', message: 'View not found' },
  api_token_not_found: { code: 'not_found', message: 'Token not found' },
  scim_token_not_found: { code: 'not_found', message: 'SCIM token not found' },
  webhook_not_found: { code: 'not_found', message: 'Webhook not found' },
  webhook_delivery_not_found: { code: 'not_found', message: 'Delivery not found' },
  note_not_found: { code: 'not_found', message: 'Note not found' },
  time_entry_not_found: { code: 'not_found', message: 'Time entry not found' },
  note_version_not_found: { code: 'not_found', message: 'Version not found' },
  project_guest_not_found: { code: 'not_found', message: 'This person is not a guest of this project' },
  too_many_views: { code: 'conflict', message: 'You can keep at most 100 saved views. Delete one to save another.' },
  // A signed file link that is unknown, altered or expired (one answer: nothing to probe).
  file_link_invalid: { code: 'not_found', message: 'This file link is invalid or has expired' },

  // permission
  admin_only: { code: 'permission_denied', message: 'This area is for super admins only' },
  // SAML single sign-on (issue 41): a team that requires it, seen from a session that did not come from it.
  sso_required: { code: 'permission_denied', message: 'This team requires single sign-on.' },
  sso_not_configured: { code: 'not_found', message: 'Single sign-on is not configured on this server.' },
  sso_settings_invalid: { code: 'validation_failed', message: 'The identity provider settings could not be read' },
  // personal API tokens: a read-only token writes nothing; no token manages accounts, tokens or sessions
  token_scope_read_only: { code: 'permission_denied', message: 'This API token is read-only' },
  token_not_allowed: { code: 'permission_denied', message: 'API tokens cannot be used for account, token or session management' },
  webhook_manage_denied: { code: 'permission_denied', message: 'Only team owners and admins can manage webhooks' },
  audit_denied: { code: 'permission_denied', message: "Only team owners and admins can read the team's audit log" },
  note_delete_denied: { code: 'permission_denied', message: 'Only its author or the team owner or an admin can delete a note' },
  cannot_deactivate_self: { code: 'permission_denied', message: 'You cannot deactivate your own account' },
  team_edit_denied: { code: 'permission_denied', message: MSG.teamNoPermission },
  team_delete_denied: { code: 'permission_denied', message: MSG.teamDeleteNoPermission },
  team_manage_denied: { code: 'permission_denied', message: MSG.teamManageNoPermission },
  owner_cannot_leave: { code: 'permission_denied', message: MSG.ownerCannotLeave },
  cannot_change_own_role: { code: 'permission_denied', message: MSG.cannotChangeOwnRole },
  cannot_remove_self: { code: 'permission_denied', message: MSG.cannotRemoveSelf },
  owner_untouchable: { code: 'permission_denied', message: MSG.ownerUntouchable },
  team_transfer_denied: { code: 'permission_denied', message: 'Only the team owner can transfer ownership' },
  invitation_not_for_you: { code: 'permission_denied', message: MSG.invitationNotForYou },
  email_unverified: { code: 'permission_denied', message: MSG.emailUnverified },
  credentials_email_unverified: { code: 'permission_denied', message: MSG.credentialsEmailUnverified },
  project_edit_denied: { code: 'permission_denied', message: MSG.projectNoPermission },
  task_delete_denied: {
    code: 'permission_denied',
    message: 'Only the task creator or a team owner or admin can delete this task',
  },
  comment_edit_denied: { code: 'permission_denied', message: 'Only its author can edit a comment' },
  comment_delete_denied: {
    code: 'permission_denied',
    message: 'Only its author or a team owner or admin can delete this comment',
  },
  attachment_delete_denied: {
    code: 'permission_denied',
    message: 'Only its uploader or a team owner or admin can delete this file',
  },
  time_entry_edit_denied: {
    code: 'permission_denied',
    message: 'Only its author or a team owner or admin can change this time entry',
  },
  time_entries_read_denied: {
    code: 'permission_denied',
    message: "Only team owners and admins can see other members' time",
  },
  task_move_denied: {
    code: 'permission_denied',
    message: 'Only the task creator or a team owner or admin can move this task to another team',
  },
  // viewer and guest roles (issue 41)
  read_only_role: { code: 'permission_denied', message: 'Your role in this team cannot make changes' },
  task_edit_denied: { code: 'permission_denied', message: 'You can only change tasks assigned to you' },
  comment_denied: { code: 'permission_denied', message: 'Viewers cannot comment in this team' },
  guests_manage_denied: { code: 'permission_denied', message: "Only team owners and admins can manage a project's guests" },
  guests_read_denied: { code: 'permission_denied', message: "Guests cannot see a project's guest list" },
  team_access_denied: { code: 'permission_denied', message: "Only team owners and admins can change the team's access rules" },
  team_sso_unavailable: { code: 'validation_failed', message: 'Set up single sign-on on this server before a team requires it.' },
  team_export_denied: { code: 'permission_denied', message: 'Guests can export only the tasks of their projects' },

  // rules and state
  end_before_start: { code: 'validation_failed', message: MSG.endAfterStart },
  assignee_not_member: { code: 'validation_failed', message: "The assignee must be an active member of the project's team" },
  already_member: { code: 'conflict', message: MSG.alreadyMember },
  invitation_exists: { code: 'conflict', message: MSG.invitationExists },
  invitation_answered: { code: 'conflict', message: MSG.invitationAnswered },
  // Too old, or its inviter may no longer invite: the invitee is not told which (team business).
  invitation_expired: { code: 'conflict', message: 'This invitation has expired.' },
  stale_edit: { code: 'conflict', message: MSG.staleEdit },
  transfer_to_self: { code: 'validation_failed', message: 'You already own this team' },
  mention_not_member: { code: 'validation_failed', message: "Only members of the task's team can be mentioned" },
  checklist_order_mismatch: { code: 'conflict', message: 'The checklist changed meanwhile. Please try again.' },
  subtask_order_mismatch: { code: 'conflict', message: 'The sub-tasks changed meanwhile. Please try again.' },
  checklist_full: { code: 'conflict', message: 'A checklist holds at most 200 items' },
  too_many_attachments: { code: 'conflict', message: 'A task holds at most 100 files' },
  file_too_large: { code: 'payload_too_large', message: 'This file is too large' },
  file_missing: { code: 'validation_failed', message: 'Choose a file to upload' },
  too_many_scim_tokens: { code: 'conflict', message: 'You can keep at most 20 SCIM tokens. Revoke one to create another.' },
  too_many_api_tokens: { code: 'conflict', message: 'You can keep at most 50 API tokens. Revoke one to create another.' },
  too_many_webhooks: { code: 'conflict', message: 'A team can have at most 20 webhooks' },
  webhook_url_refused: {
    code: 'validation_failed',
    message: 'This URL points to a private or local address, which webhooks cannot reach',
  },
  webhook_url_insecure: { code: 'validation_failed', message: 'Webhook URLs must use HTTPS' },
  import_invalid: { code: 'validation_failed', message: 'This file could not be read as an import' },
  not_a_guest: { code: 'validation_failed', message: 'Only a guest of the team can be added to a project' },
  // a project's workflow (issue 36): its statuses' names, colours, WIP limits, the rules of deletion and order
  ...WORKFLOW_ERRORS,
  // sub-tasks, dependencies and start dates (issue 37): parents, cycles, depth, blockers, start ≤ due
  ...TASK_STRUCTURE_ERRORS,
  // custom fields (issue 38): definitions and values
  ...CUSTOM_FIELD_ERRORS,
  // a project's public board link (issue 40): a token that opens nothing (unknown, off, reset); a reset while off
  share_not_found: { code: 'not_found', message: SHARE_NOT_FOUND },
  share_off: { code: 'conflict', message: 'Turn the public link on first.' },
  // request forms (issue 40)
  ...FORM_ERRORS,
  // tasks by email: the intake address (issue 40)
  ...INTAKE_ERRORS,

  // settings: the account
  wrong_password: { code: 'validation_failed', message: MSG.currentPasswordWrong },
  email_unchanged: { code: 'validation_failed', message: 'This is already your email address' },
  delete_confirmation_mismatch: { code: 'validation_failed', message: 'Type your email address exactly as shown to confirm' },
  owns_teams: {
    code: 'conflict',
    message: 'You own teams. A team cannot be left without its owner: transfer or delete them before deleting your account.',
  },
} as const satisfies Record<string, ReasonSpec>;

export type ErrorReason = keyof typeof ERRORS;

export const isErrorReason = (value: unknown): value is ErrorReason => typeof value === 'string' && Object.hasOwn(ERRORS, value);

export const errorStatus = (reason: ErrorReason): number => ERROR_STATUS[ERRORS[reason].code];

/** The text a person reads for a reason. */
export const ERROR_MESSAGES: Record<ErrorReason, string> = Object.fromEntries(
  Object.entries(ERRORS).map(([reason, spec]) => [reason, spec.message]),
) as Record<ErrorReason, string>;

/** True when the reason tells a person nothing they can act on; the caller shows its own text. */
export const isGenericError = (reason: ErrorReason): boolean => 'generic' in ERRORS[reason];

/** The JSON body of every error answer. `fields` maps a body path to its message. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; reason?: ErrorReason; fields?: Record<string, string> };
}

/**
 * The body for a reason. With `fields`, the message is the first field's (a form shows it
 * beside the field; an API user reads it first). `reason` is left out where it is the code itself.
 */
export function errorBody(reason: ErrorReason, fields?: Record<string, string>): ErrorBody {
  const { code, message } = ERRORS[reason];
  const first = fields && Object.values(fields)[0];
  return {
    error: {
      code,
      message: first ?? message,
      ...(reason !== code && { reason }),
      ...(fields && { fields }),
    },
  };
}
