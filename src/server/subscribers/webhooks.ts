import { type ChangeActor, actorUserId } from '../../domain/changes';
import type { Tx } from '../db/client';
import type { ChangeHandlers, Subscriber } from '../lib/changes';
import { enqueueWebhookEvent, memberWebhookEvent, projectWebhookEvent, taskChangeEvents } from '../modules/webhooks';

/** Webhook bodies name a person as their actor; the system makes none of the kinds that send one. */
function actorId(actor: ChangeActor): string {
  const id = actorUserId(actor);
  if (!id) throw new Error('a webhook event needs a person as its actor');
  return id;
}

/**
 * The team's webhooks (DESIGN.md "outboxes"): deliveries are queued in the change's transaction. A task or project that
 * moves to another team leaves the old one (`*.deleted` there) and arrives in the new one (`*.created`).
 */
const handlers: ChangeHandlers<Tx> = {
  'team.created': null,
  'team.updated': null,
  'team.deleted': null,
  'team.ownership_transferred': null,
  'member.role_changed': null,
  'member.removed': (c, actor, tx) =>
    memberWebhookEvent(tx, { teamId: c.teamId, type: 'member.left', actorId: actorId(actor), memberId: c.member.memberId }),
  'member.joined': (c, actor, tx) =>
    memberWebhookEvent(tx, { teamId: c.teamId, type: 'member.joined', actorId: actorId(actor), memberId: c.member.memberId }),
  'invitation.sent': null,
  'invitation.cancelled': null,
  'invitation.declined': null,
  'project.created': (c, actor, tx) =>
    projectWebhookEvent(tx, { teamId: c.teamId, type: 'project.created', actorId: actorId(actor), projectId: c.projectId }),
  'project.updated': async (c, actor, tx) => {
    const base = { actorId: actorId(actor), projectId: c.projectId };
    if (c.previousTeamId === c.teamId) {
      await projectWebhookEvent(tx, { ...base, teamId: c.teamId, type: 'project.updated' });
      return;
    }
    await projectWebhookEvent(tx, { ...base, teamId: c.previousTeamId, type: 'project.deleted' });
    await projectWebhookEvent(tx, { ...base, teamId: c.teamId, type: 'project.created' });
  },
  'project.deleted': (c, actor, tx) =>
    projectWebhookEvent(tx, { teamId: c.teamId, type: 'project.deleted', actorId: actorId(actor), projectId: c.projectId }),
  'task.created': (c, actor, tx) =>
    c.teamHasWebhooks === false
      ? undefined
      : enqueueWebhookEvent(tx, { teamId: c.teamId, type: 'task.created', actorId: actorId(actor), object: { task: c.task } }),
  'task.updated': async (c, actor, tx) => {
    const hooks =
      c.teamId === c.previousTeamId
        ? taskChangeEvents(c.before, c.after, c.keys).map((type) => ({ teamId: c.teamId, type, task: c.after }))
        : [
            { teamId: c.previousTeamId, type: 'task.deleted' as const, task: c.before },
            { teamId: c.teamId, type: 'task.created' as const, task: c.after },
          ];
    for (const hook of hooks) {
      await enqueueWebhookEvent(tx, {
        teamId: hook.teamId,
        type: hook.type,
        actorId: actorId(actor),
        object: { task: hook.task },
      });
    }
  },
  'task.deleted': (c, actor, tx) =>
    enqueueWebhookEvent(tx, { teamId: c.teamId, type: 'task.deleted', actorId: actorId(actor), object: { task: c.task } }),
  'comment.created': (c, actor, tx) =>
    enqueueWebhookEvent(tx, {
      teamId: c.teamId,
      type: 'comment.created',
      actorId: actorId(actor),
      object: { comment: c.comment },
    }),
  'task.detail_changed': null,
  // `data.import` (`data.team` names the team).
  'import.completed': (c, actor, tx) =>
    enqueueWebhookEvent(tx, {
      teamId: c.team.id,
      type: 'import.completed',
      actorId: actorId(actor),
      object: {
        import: { source: c.source, teamCreated: c.team.created, project: c.project, counts: c.counts, warnings: c.warnings },
      },
    }),
  'webhook.created': null,
  'webhook.updated': null,
  'webhook.deleted': null,
  'api_token.created': null,
  'api_token.revoked': null,
  'account.two_factor_enabled': null,
  'account.two_factor_disabled': null,
  'account.deactivated': null,
  'account.activated': null,
  'account.role_set': null,
  'note.created': null,
  'note.updated': null,
  'note.deleted': null,
  'note.mentioned': null,
};

export const webhookSubscriber: Subscriber = { name: 'webhooks', phase: 'inTransaction', handlers };
