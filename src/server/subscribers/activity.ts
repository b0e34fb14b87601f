import { actorUserId } from '../../domain/changes';
import type { Tx } from '../db/client';
import type { ChangeHandlers, Subscriber } from '../lib/changes';
import { recordTaskEdit } from '../modules/task-activity';

/** The task page's activity history: an entry per changed field of an edit, written with it. */
const handlers: ChangeHandlers<Tx> = {
  'team.created': null,
  'team.updated': null,
  'team.deleted': null,
  'team.ownership_transferred': null,
  'member.role_changed': null,
  'member.removed': null,
  'member.joined': null,
  'invitation.sent': null,
  'invitation.cancelled': null,
  'invitation.declined': null,
  'project.created': null,
  'project.updated': null,
  'project.deleted': null,
  // The creation is the task row's own (created_at, creator): the history starts at the first edit.
  'task.created': null,
  'task.updated': async (c, actor, tx) => {
    const actorId = actorUserId(actor);
    if (actorId) await recordTaskEdit(tx, actorId, c.before, c.after);
  },
  'task.deleted': null,
  'comment.created': null,
  'task.detail_changed': null,
  'import.completed': null,
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

export const activitySubscriber: Subscriber = { name: 'activity', phase: 'inTransaction', handlers };
