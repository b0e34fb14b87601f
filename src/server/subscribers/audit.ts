import type { ChangeActor } from '../../domain/changes';
import type { Tx } from '../db/client';
import type { ChangeHandlers, Subscriber } from '../lib/changes';
import { type AuditEntry, recordAudit } from '../modules/audit';

/** The audit row's actor: the person (and, through an API token, which token), or nobody for the system. */
function by(actor: ChangeActor): Pick<AuditEntry, 'actorId' | 'actorEmail' | 'ip'> {
  if (actor.kind === 'system') return { actorId: null, actorEmail: null, ip: null };
  return { actorId: actor.userId, actorEmail: actor.email, ip: actor.ip };
}

/** What an API token adds to a row's details: the token, so the log names it and not only its owner. */
const via = (actor: ChangeActor): Record<string, unknown> =>
  actor.kind === 'token' ? { via: 'api_token', apiTokenId: actor.tokenId } : actor.kind === 'system' ? { via: actor.via } : {};

type Row = Omit<AuditEntry, 'actorId' | 'actorEmail' | 'ip'>;

/** A row about a team's webhook: the hook, named by its address. */
const webhook = (c: { teamId: string; webhookId: string; url: string }) => ({
  teamId: c.teamId,
  targetType: 'webhook',
  targetId: c.webhookId,
  targetLabel: c.url,
});

/** A row about an account: the account is its target. */
const ownAccount = (c: { userId: string; email: string }) => ({ targetType: 'user', targetId: c.userId, targetLabel: c.email });
const write = (tx: Tx, actor: ChangeActor, row: Row) =>
  recordAudit(tx, { ...row, ...by(actor), details: { ...row.details, ...via(actor) } });

/** The security-relevant changes, one audit row each (two for a joined member: the invitation and the membership). */
const handlers: ChangeHandlers<Tx> = {
  'team.created': null,
  'team.updated': null,
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
  'invitation.sent': (c, actor, tx) =>
    write(tx, actor, {
      action: 'invitation.sent',
      teamId: c.teamId,
      targetType: 'invitation',
      targetId: c.invitationId,
      targetLabel: c.email,
      details: { role: c.role },
    }),
  'invitation.cancelled': (c, actor, tx) =>
    write(tx, actor, {
      action: 'invitation.cancelled',
      teamId: c.teamId,
      targetType: 'invitation',
      targetId: c.invitationId,
      targetLabel: c.email,
      details: { role: c.role },
    }),
  'invitation.declined': null,
  'project.created': null,
  'project.updated': null,
  'project.deleted': (c, actor, tx) =>
    write(tx, actor, {
      action: 'project.deleted',
      teamId: c.teamId,
      targetType: 'project',
      targetId: c.projectId,
      targetLabel: c.name,
    }),
  'task.created': null,
  'task.updated': null,
  'task.deleted': null,
  'comment.created': null,
  'task.detail_changed': null,
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
  'webhook.created': (c, actor, tx) =>
    write(tx, actor, { action: 'webhook.created', ...webhook(c), details: { events: c.events } }),
  'webhook.updated': (c, actor, tx) => write(tx, actor, { action: 'webhook.updated', ...webhook(c), details: c.changes }),
  'webhook.deleted': (c, actor, tx) =>
    write(tx, actor, { action: 'webhook.deleted', ...webhook(c), details: { events: c.events } }),
  'api_token.created': (c, actor, tx) =>
    write(tx, actor, {
      action: 'api_token.created',
      targetType: 'api_token',
      targetId: c.tokenId,
      targetLabel: c.name,
      details: { scope: c.scope, expiresAt: c.expiresAt },
    }),
  'api_token.revoked': (c, actor, tx) =>
    write(tx, actor, {
      action: 'api_token.revoked',
      targetType: 'api_token',
      targetId: c.tokenId,
      targetLabel: c.name,
      ...(c.reason ? { details: { reason: c.reason } } : {}),
    }),
  'account.two_factor_enabled': (c, actor, tx) => write(tx, actor, { action: 'auth.two_factor_enabled', ...ownAccount(c) }),
  'account.two_factor_disabled': (c, actor, tx) =>
    write(tx, actor, { action: 'auth.two_factor_disabled', ...ownAccount(c), details: { proof: c.proof } }),
  'account.deactivated': (c, actor, tx) => write(tx, actor, { action: 'admin.user_deactivated', ...ownAccount(c) }),
  'account.activated': (c, actor, tx) => write(tx, actor, { action: 'admin.user_activated', ...ownAccount(c) }),
  'account.role_set': (c, actor, tx) =>
    write(tx, actor, { action: 'admin.role_set', ...ownAccount(c), details: { role: c.role } }),
  'note.created': null,
  'note.updated': null,
  'note.deleted': null,
  'note.mentioned': null,
};

export const auditSubscriber: Subscriber = { name: 'audit', phase: 'inTransaction', handlers };
