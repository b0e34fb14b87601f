import type { Config } from '../config';
import type { Tx } from '../db/client';
import type { ChangeHandlers, Subscriber } from '../lib/changes';
import { enqueueMail, enqueueMails } from '../modules/mail';
import { noteMentionMails } from '../modules/notes';
import { newCommentMails } from '../modules/task-comments';
import { taskAssignedMail } from '../modules/tasks';
import { invitationMailFor } from '../modules/teams';
import { actorUserId } from '../../domain/changes';
import type { TaskDto } from '../../domain/schemas/task';

export type MailSettings = Pick<Config, 'publicUrl' | 'emailVerification' | 'authSecret' | 'invitationTtlDays'>;

/**
 * Mail the changes cause, queued in the mail outbox in the change's transaction (decision 0012): the invitation,
 * 'assigned to you' for a new assignee, and 'mentioned' / 'new comment' for a comment.
 */
export function mailSubscriber(settings: MailSettings): Subscriber {
  const assigned = async (tx: Tx, actorId: string | null, task: TaskDto) => {
    if (!task.assigneeId || !actorId) return;
    const mail = await taskAssignedMail(tx, settings, {
      actorId,
      assigneeId: task.assigneeId,
      task,
      projectName: task.projectName,
    });
    if (mail) await enqueueMail(tx, mail);
  };
  const handlers: ChangeHandlers<Tx> = {
    'team.created': null,
    'team.updated': null,
    'team.deleted': null,
    'team.ownership_transferred': null,
    'member.role_changed': null,
    'member.removed': null,
    'member.joined': null,
    'invitation.sent': async (c, _actor, tx) => {
      const mail = await invitationMailFor(tx, settings, c.invitationId);
      if (mail) await enqueueMail(tx, mail);
    },
    'invitation.cancelled': null,
    'invitation.declined': null,
    'project.created': null,
    'project.updated': null,
    'project.deleted': null,
    'task.created': (c, actor, tx) => assigned(tx, actorUserId(actor), c.task),
    'task.updated': (c, actor, tx) =>
      c.after.assigneeId && c.after.assigneeId !== c.before.assigneeId ? assigned(tx, actorUserId(actor), c.after) : undefined,
    'task.deleted': null,
    'comment.created': async (c, actor, tx) => {
      const actorId = actorUserId(actor);
      if (!actorId) return;
      const names = new Map(
        [...c.comment.mentions, ...(c.comment.author ? [c.comment.author] : [])].map((p) => [p.id, p.fullName]),
      );
      const mails = await newCommentMails(tx, settings, {
        actorId,
        actorName: c.comment.author?.fullName ?? 'Someone',
        task: c.task,
        body: c.comment.body,
        nameOf: (id) => names.get(id),
        mentionedIds: c.mentionedIds,
        watcherIds: c.watcherIds,
      });
      await enqueueMails(tx, mails);
    },
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
    'note.mentioned': async (c, _actor, tx) => enqueueMails(tx, await noteMentionMails(tx, settings, c)),
  };
  return { name: 'mail', phase: 'inTransaction', handlers };
}
