import type { ChangeKind } from '../../domain/changes';
import type { Tx } from '../db/client';
import type { ChangeHandler, ChangeHandlers, Subscriber } from '../lib/changes';

/** The change recorder's subscribers, in the order they run (subscribers/index.ts). */
export type SubscriberName = 'audit' | 'activity' | 'webhooks' | 'mail' | 'realtime';

/** A decision for every kind of change: which subscribers react to it (none: an empty row). */
export type ReactionTable = { readonly [K in ChangeKind]: readonly SubscriberName[] };

/**
 * Who reacts to each kind of change (issue 34), one row a kind: the audit row, the task history, the webhook
 * deliveries, the mail, the realtime events. A new kind in src/domain/changes.ts fails the typecheck here until it has
 * its row, and each subscriber's table (inTransaction / afterCommit below) must hold a handler for exactly the kinds
 * its name is on: a missing one or one too many fails the typecheck too.
 */
export const REACTIONS = {
  'team.created': ['realtime'],
  'team.updated': ['realtime'],
  'team.deleted': ['audit', 'realtime'],
  'team.ownership_transferred': ['audit', 'realtime'],
  'member.role_changed': ['audit', 'realtime'],
  'member.removed': ['audit', 'webhooks', 'realtime'],
  'member.joined': ['audit', 'webhooks', 'realtime'],
  'invitation.sent': ['audit', 'mail', 'realtime'],
  'invitation.cancelled': ['audit', 'realtime'],
  'invitation.declined': ['realtime'],
  'project.created': ['webhooks', 'realtime'],
  // Issue 41: a team's access rules and a project's guests (audit actions of migration 0022); open pages refresh.
  'team.access_changed': ['audit', 'realtime'],
  'project.guest_added': ['audit', 'realtime'],
  'project.guest_removed': ['audit', 'realtime'],
  'project.updated': ['webhooks', 'realtime'],
  'project.deleted': ['audit', 'webhooks', 'realtime'],
  // A project's workflow (decision 0024): no audit row (a workflow edit is not security-relevant, as a project edit is
  // not); a delete that moves tasks writes their history (one status entry each), and sends one event, not one per task.
  'status.created': ['webhooks', 'realtime'],
  'status.updated': ['webhooks', 'realtime'],
  'status.deleted': ['activity', 'webhooks', 'realtime'],
  'status.reordered': ['webhooks', 'realtime'],
  // A team's custom fields (issue 38): an audit row each (they shape what every member sees and can clear values from
  // many tasks at once); removing options or the field is one change, not a task.updated per task.
  'field.created': ['audit', 'realtime'],
  'field.updated': ['audit', 'realtime'],
  'field.deleted': ['audit', 'realtime'],
  // The creation is the task row's own (created_at, creator): the history starts at the first edit.
  // Issue 40: a task from a form or by mail starts its history with 'Submitted via …' (activity; nothing otherwise).
  'task.created': ['activity', 'webhooks', 'mail', 'realtime'],
  'task.updated': ['activity', 'webhooks', 'mail', 'realtime'],
  'task.deleted': ['webhooks', 'realtime'],
  'comment.created': ['webhooks', 'mail', 'realtime'],
  'task.detail_changed': ['realtime'],
  // Issue 37: a dependency's history is on both tasks; realtime refreshes both tasks' pages and cards.
  'task.dependency_added': ['activity', 'webhooks', 'realtime'],
  'task.dependency_removed': ['activity', 'webhooks', 'realtime'],
  // Time tracking (issue 39): an entry is the task's history and refreshes its team's pages, cards and timesheets; no
  // audit row (not security-relevant, as a comment is not) and no webhook (none is documented for time). A timer is
  // the person's own: only their other devices hear of it.
  'time_entry.created': ['activity', 'realtime'],
  'time_entry.updated': ['activity', 'realtime'],
  'time_entry.deleted': ['activity', 'realtime'],
  'timer.changed': ['realtime'],
  // Work from outside the team (issue 40, decision 0028): an audit row each (each opens the project to people outside
  // it; an options-only share change writes none); the settings pages refresh.
  'share.changed': ['audit', 'realtime'],
  'form.created': ['audit', 'realtime'],
  'form.updated': ['audit', 'realtime'],
  'form.deleted': ['audit', 'realtime'],
  'intake.changed': ['audit', 'realtime'],
  // A form's confirmation to its requester: the mail alone (the task's own change carries the rest).
  'request.received': ['mail'],
  'import.completed': ['audit', 'webhooks', 'realtime'],
  'webhook.created': ['audit'],
  'webhook.updated': ['audit'],
  'webhook.deleted': ['audit'],
  'api_token.created': ['audit'],
  'api_token.revoked': ['audit', 'realtime'],
  // SCIM provisioning (issue 41): the tokens are audited as tokens, memberships as memberships, a changed address as
  // one (the audit_log check of migration 0020 has no provisioning action: a new account is not audited, as a sign-up
  // is not); a group's team refreshes its pages.
  'scim_token.created': ['audit'],
  'scim_token.revoked': ['audit'],
  'scim.user_provisioned': ['audit'],
  'scim.group_provisioned': ['audit', 'realtime'],
  'scim.group_unlinked': ['audit', 'realtime'],
  'scim.member_added': ['audit', 'realtime'],
  // Directory sign-in (issue 41): a membership LDAP_GROUP_MAP gives is audited, announced and heard like a joined one.
  'ldap.member_added': ['audit', 'webhooks', 'realtime'],
  'account.two_factor_enabled': ['audit'],
  'account.two_factor_disabled': ['audit'],
  'account.deactivated': ['audit', 'realtime'],
  'account.activated': ['audit'],
  'account.role_set': ['audit'],
  // What a new account brings (a verification link, invitations as notifications) is recorded as its own changes.
  'account.created': [],
  'sso.settings_updated': ['audit'],
  'account.signed_in': ['audit'],
  'account.sign_in_failed': ['audit'],
  'account.sessions_revoked': ['realtime'],
  'account.link_issued': ['mail'],
  'account.password_changed': ['audit', 'mail'],
  'account.password_reset': ['audit', 'mail'],
  'account.email_changed': ['audit', 'mail'],
  'account.deleted': ['realtime'],
  'note.created': ['realtime'],
  'note.updated': ['realtime'],
  'note.deleted': ['realtime'],
  'note.mentioned': ['mail', 'realtime'],
} as const satisfies ReactionTable;

/** Every kind of change (the table's keys, which the typecheck keeps equal to the union), for tests that walk them. */
export const CHANGE_KINDS = Object.keys(REACTIONS) as ChangeKind[];

/** The kinds `S` reacts to, by REACTIONS. */
export type KindsOf<S extends SubscriberName> = {
  [K in ChangeKind]: S extends (typeof REACTIONS)[K][number] ? K : never;
}[ChangeKind];

/** A subscriber's handlers: one for each kind REACTIONS gives it, and no other. */
export type HandlersOf<S extends SubscriberName, Context> = { [K in KindsOf<S>]: ChangeHandler<K, Context> };

/** The recorder's exhaustive table: the subscriber's handlers, `null` for every other kind. */
function table<Context>(handled: Partial<Record<ChangeKind, unknown>>): ChangeHandlers<Context> {
  return Object.fromEntries(CHANGE_KINDS.map((kind) => [kind, handled[kind] ?? null])) as ChangeHandlers<Context>;
}

/** A subscriber that writes in the change's own transaction (audit rows, outboxes, the history). */
export const inTransaction = <S extends SubscriberName>(name: S, handled: HandlersOf<S, Tx>): Subscriber => ({
  name,
  phase: 'inTransaction',
  handlers: table(handled),
});

/** A subscriber that reacts once the change has committed (realtime fan-out). */
export const afterCommit = <S extends SubscriberName>(name: S, handled: HandlersOf<S, void>): Subscriber => ({
  name,
  phase: 'afterCommit',
  handlers: table(handled),
});
