import { type ChangeActor, actorUserId } from '../../domain/changes';
import type { CustomFieldDto } from '../../domain/schemas/custom-field';
import type { Tx } from '../db/client';
import { type AuditEntry, recordAudit } from '../modules/audit';
import { inTransaction } from './reactions';

/**
 * The audit row's actor: the person (and, through an API token, which token); nobody for the system; for someone not
 * signed in, no id but the address they gave.
 */
function by(actor: ChangeActor): Pick<AuditEntry, 'actorId' | 'actorEmail' | 'ip'> {
  if (actor.kind === 'system') return { actorId: null, actorEmail: null, ip: null };
  return { actorId: actorUserId(actor), actorEmail: actor.email, ip: actor.ip };
}

/** What an API token adds to a row's details: the token, so the log names it and not only its owner. */
const via = (actor: ChangeActor): Record<string, unknown> =>
  actor.kind === 'token'
    ? { via: 'api_token', apiTokenId: actor.tokenId }
    : actor.kind === 'scim'
      ? { via: 'scim', scimTokenId: actor.scimTokenId }
      : actor.kind === 'system'
        ? { via: actor.via }
        : {};

type Row = Omit<AuditEntry, 'actorId' | 'actorEmail' | 'ip'>;

/** A row about a team's webhook: the hook, named by its address. */
const webhook = (c: { teamId: string; webhookId: string; url: string }) => ({
  teamId: c.teamId,
  targetType: 'webhook',
  targetId: c.webhookId,
  targetLabel: c.url,
});

/** The row's target: what it is about, named again by the label it keeps when that is gone. */
const target = (targetType: string, targetId: string | null, targetLabel: string) => ({ targetType, targetId, targetLabel });

/** A row about an invitation: the invitation, named by the address it went to, and the role it offered. */
const invitationRow = (
  action: 'invitation.sent' | 'invitation.cancelled',
  c: { teamId: string; invitationId: string; email: string; role: string },
): Row => ({
  action,
  teamId: c.teamId,
  targetType: 'invitation',
  targetId: c.invitationId,
  targetLabel: c.email,
  details: { role: c.role },
});

/** What a field's change changed: `{ key: { from, to } }` for each key of the DTO that differs (times left out). */
function fieldChanges(before: CustomFieldDto, after: CustomFieldDto): Record<string, unknown> {
  const keys = ['name', 'options', 'projectIds', 'showOnCard', 'archived', 'unit', 'decimals', 'position'] as const;
  const changed = keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  return Object.fromEntries(changed.map((k) => [k, { from: before[k], to: after[k] }]));
}

/** A row about a project's guest (issue 41): the guest is its target; the project is in the details. */
const guestRow = (
  action: 'project.guest_added' | 'project.guest_removed',
  c: { teamId: string; projectId: string; guest: { userId: string; email: string } },
): Row => ({ action, teamId: c.teamId, ...target('user', c.guest.userId, c.guest.email), details: { projectId: c.projectId } });

/** A row about an account: the account is its target. */
const ownAccount = (c: { userId: string; email: string }) => ({ targetType: 'user', targetId: c.userId, targetLabel: c.email });
const write = (tx: Tx, actor: ChangeActor, row: Row) =>
  recordAudit(tx, { ...row, ...by(actor), details: { ...row.details, ...via(actor) } });

/** The security-relevant changes, one audit row each (two for a joined member: the invitation and the membership). */
export const auditSubscriber = inTransaction('audit', {
  'team.deleted': (c, actor, tx) =>
    write(tx, actor, {
      action: 'team.deleted',
      teamId: c.teamId,
      targetType: 'team',
      targetId: c.teamId,
      targetLabel: c.teamName,
    }),
  // One action, one row: the new owner's change; the old owner's (to admin) is in its details.
  'team.ownership_transferred': (c, actor, tx) =>
    write(tx, actor, {
      action: 'team.role_changed',
      teamId: c.teamId,
      targetType: 'user',
      targetId: c.newOwner.userId,
      targetLabel: c.newOwner.email,
      details: {
        memberId: c.newOwner.memberId,
        from: c.newOwner.from,
        to: 'owner',
        ownershipTransfer: true,
        previousOwnerTo: 'admin',
      },
    }),
  'member.role_changed': (c, actor, tx) =>
    write(tx, actor, {
      action: 'team.role_changed',
      teamId: c.teamId,
      targetType: 'user',
      targetId: c.member.userId,
      targetLabel: c.member.email,
      details: { memberId: c.member.memberId, from: c.from, to: c.to },
    }),
  'member.removed': (c, actor, tx) =>
    write(tx, actor, {
      action: 'team.member_removed',
      teamId: c.teamId,
      targetType: 'user',
      targetId: c.member.userId,
      targetLabel: c.member.email,
      details: { memberId: c.member.memberId, role: c.role, left: c.left },
    }),
  'member.joined': async (c, actor, tx) => {
    // Two facts, one row each: the invitation was accepted, and the team gained a member.
    const invited = { invitationId: c.invitation.id, role: c.invitation.role, invitedBy: c.invitation.invitedBy };
    await write(tx, actor, {
      action: 'invitation.accepted',
      teamId: c.teamId,
      targetType: 'invitation',
      targetId: c.invitation.id,
      targetLabel: c.invitation.email,
      details: invited,
    });
    await write(tx, actor, {
      action: 'team.member_added',
      teamId: c.teamId,
      targetType: 'user',
      targetId: c.member.userId,
      targetLabel: c.member.email,
      details: { memberId: c.member.memberId, ...invited },
    });
  },
  'ldap.member_added': (c, actor, tx) =>
    write(tx, actor, {
      action: 'team.member_added',
      teamId: c.teamId,
      targetType: 'user',
      targetId: c.member.userId,
      targetLabel: c.member.email,
      details: { memberId: c.member.memberId, role: c.role, via: 'ldap', group: c.group },
    }),
  'invitation.sent': (c, actor, tx) => write(tx, actor, invitationRow('invitation.sent', c)),
  'invitation.cancelled': (c, actor, tx) => write(tx, actor, invitationRow('invitation.cancelled', c)),
  'project.deleted': (c, actor, tx) =>
    write(tx, actor, {
      action: 'project.deleted',
      teamId: c.teamId,
      targetType: 'project',
      targetId: c.projectId,
      targetLabel: c.name,
    }),
  'import.completed': (c, actor, tx) => {
    const target = c.project ?? c.team;
    return write(tx, actor, {
      action: c.project ? 'project.imported' : 'team.imported',
      teamId: c.team.id,
      targetType: c.project ? 'project' : 'team',
      targetId: target.id,
      targetLabel: target.name,
      details: { source: c.source, counts: c.counts, projectCreated: c.project?.created ?? null },
    });
  },
  // A team's custom fields (issue 38): the field, named by its name; a change says what changed, before and after.
  'field.created': (c, actor, tx) =>
    write(tx, actor, {
      action: 'custom_field.created',
      teamId: c.teamId,
      ...target('custom_field', c.field.id, c.field.name),
      details: { type: c.field.type },
    }),
  'field.updated': (c, actor, tx) =>
    write(tx, actor, {
      action: 'custom_field.updated',
      teamId: c.teamId,
      ...target('custom_field', c.after.id, c.after.name),
      details: { ...fieldChanges(c.before, c.after), clearedTasks: c.clearedTasks },
    }),
  'field.deleted': (c, actor, tx) =>
    write(tx, actor, {
      action: 'custom_field.deleted',
      teamId: c.teamId,
      ...target('custom_field', c.field.id, c.field.name),
      details: { type: c.field.type, clearedTasks: c.clearedTasks },
    }),
  // Work from outside the team (issue 40): the project (or the form), named by its name.
  'share.changed': async (c, actor, tx) => {
    if (c.action === 'updated') return;
    await write(tx, actor, {
      action: `project.share_${c.action}`,
      teamId: c.teamId,
      ...target('project', c.projectId, c.projectName),
      details: { showPeople: c.showPeople, showDescriptions: c.showDescriptions },
    });
  },
  'form.created': (c, actor, tx) =>
    write(tx, actor, { action: 'form.created', teamId: c.teamId, ...target('form', c.form.id, c.form.name), details: {} }),
  'form.updated': (c, actor, tx) =>
    write(tx, actor, {
      action: 'form.updated',
      teamId: c.teamId,
      ...target('form', c.after.id, c.after.name),
      details: { open: c.after.open, reset: c.reset },
    }),
  'form.deleted': (c, actor, tx) =>
    write(tx, actor, { action: 'form.deleted', teamId: c.teamId, ...target('form', c.form.id, c.form.name), details: {} }),
  'intake.changed': (c, actor, tx) =>
    write(tx, actor, {
      action: `project.intake_${c.action}`,
      teamId: c.teamId,
      ...target('project', c.projectId, c.projectName),
      details: {},
    }),
  'webhook.created': (c, actor, tx) =>
    write(tx, actor, { action: 'webhook.created', ...webhook(c), details: { events: c.events } }),
  'webhook.updated': (c, actor, tx) => write(tx, actor, { action: 'webhook.updated', ...webhook(c), details: c.changes }),
  'webhook.deleted': (c, actor, tx) =>
    write(tx, actor, { action: 'webhook.deleted', ...webhook(c), details: { events: c.events } }),
  'api_token.created': (c, actor, tx) =>
    write(tx, actor, {
      action: 'api_token.created',
      ...target('api_token', c.tokenId, c.name),
      details: { scope: c.scope, expiresAt: c.expiresAt },
    }),
  'api_token.revoked': (c, actor, tx) =>
    write(tx, actor, {
      action: 'api_token.revoked',
      ...target('api_token', c.tokenId, c.name),
      ...(c.reason ? { details: { reason: c.reason } } : {}),
    }),
  // SCIM (issue 41): a SCIM token is a token (its target type says which kind); what SCIM changes, as the same change.
  'scim_token.created': (c, actor, tx) =>
    write(tx, actor, { action: 'api_token.created', ...target('scim_token', c.tokenId, c.name), details: { prefix: c.prefix } }),
  'scim_token.revoked': (c, actor, tx) =>
    write(tx, actor, { action: 'api_token.revoked', ...target('scim_token', c.tokenId, c.name) }),
  'scim.user_provisioned': async (c, actor, tx) => {
    const fields = { created: c.created, fields: c.fields };
    await write(tx, actor, { action: 'admin.user_provisioned', ...ownAccount(c), details: fields });
    if (c.previousEmail === null || c.previousEmail === c.email) return;
    const details = { oldEmail: c.previousEmail, newEmail: c.email };
    await write(tx, actor, { action: 'auth.email_changed', ...ownAccount(c), details });
  },
  'scim.group_provisioned': (c, actor, tx) =>
    write(tx, actor, {
      action: 'team.scim_provisioned',
      teamId: c.teamId,
      ...target('team', c.teamId, c.teamName),
      details: { created: c.created, fields: c.fields },
    }),
  'scim.group_unlinked': (c, actor, tx) =>
    write(tx, actor, {
      action: 'team.scim_unlinked',
      teamId: c.teamId,
      ...target('team', c.teamId, c.teamName),
      details: { removedMembers: c.removedMembers },
    }),
  'team.access_changed': (c, actor, tx) =>
    write(tx, actor, {
      action: 'team.access_changed',
      teamId: c.teamId,
      targetType: 'team',
      targetId: c.teamId,
      details: { viewersMayComment: c.viewersMayComment, requiresSso: c.requiresSso },
    }),
  'project.guest_added': (c, actor, tx) => write(tx, actor, guestRow('project.guest_added', c)),
  'project.guest_removed': (c, actor, tx) => write(tx, actor, guestRow('project.guest_removed', c)),
  'sso.settings_updated': (c, actor, tx) =>
    write(tx, actor, {
      action: 'admin.sso_updated',
      targetType: 'sso',
      targetId: null,
      details: { enabled: c.enabled, idpInitiated: c.idpInitiated, source: c.source },
    }),
  'scim.member_added': (c, actor, tx) =>
    write(tx, actor, {
      action: 'team.member_added',
      teamId: c.teamId,
      targetType: 'user',
      targetId: c.member.userId,
      targetLabel: c.member.email,
      details: { memberId: c.member.memberId, role: 'member' },
    }),
  'account.two_factor_enabled': (c, actor, tx) => write(tx, actor, { action: 'auth.two_factor_enabled', ...ownAccount(c) }),
  'account.two_factor_disabled': (c, actor, tx) =>
    write(tx, actor, { action: 'auth.two_factor_disabled', ...ownAccount(c), details: { proof: c.proof } }),
  'account.deactivated': (c, actor, tx) => write(tx, actor, { action: 'admin.user_deactivated', ...ownAccount(c) }),
  'account.activated': (c, actor, tx) => write(tx, actor, { action: 'admin.user_activated', ...ownAccount(c) }),
  'account.role_set': (c, actor, tx) =>
    write(tx, actor, { action: 'admin.role_set', ...ownAccount(c), details: { role: c.role } }),
  'account.signed_in': (c, actor, tx) =>
    write(tx, actor, { action: 'auth.sign_in', ...ownAccount(c), details: { method: c.method, sessionId: c.sessionId } }),
  // By nobody signed in: the address tried (never the password) is the row's actorEmail and target.
  'account.sign_in_failed': (c, actor, tx) => {
    const details = { method: c.method, reason: c.reason };
    return write(tx, actor, { action: 'auth.sign_in_failed', ...target('user', c.userId, c.email), details });
  },
  'account.password_changed': (c, actor, tx) =>
    write(tx, actor, {
      action: 'auth.password_changed',
      ...ownAccount(c),
      details: { otherSessionsSignedOut: c.otherSessionsSignedOut, ...c.revoked },
    }),
  'account.password_reset': (c, actor, tx) =>
    write(tx, actor, { action: 'auth.password_reset', ...ownAccount(c), details: { ...c.revoked } }),
  // Labelled with the address the account moved to; the actor is named by the one it left.
  'account.email_changed': (c, actor, tx) =>
    write(tx, actor, {
      action: 'auth.email_changed',
      ...ownAccount({ userId: c.userId, email: c.newEmail }),
      details: { oldEmail: c.oldEmail, newEmail: c.newEmail },
    }),
});
