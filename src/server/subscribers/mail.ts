import type { Config } from '../config';
import type { Tx } from '../db/client';
import type { Subscriber } from '../lib/changes';
import { accountLinkMail, emailChangedMail, passwordChangedMail } from '../modules/auth';
import { requestReceivedMail } from '../modules/forms';
import { issueReplyAddress } from '../modules/inbound-mail';
import { enqueueMail, enqueueMails, type ReplyAddressFor } from '../modules/mail';
import { noteMentionMails } from '../modules/notes';
import { newCommentMails } from '../modules/task-comments';
import { taskAssignedMail } from '../modules/tasks';
import { invitationMailFor } from '../modules/teams';
import { actorUserId } from '../../domain/changes';
import type { TaskDto } from '../../domain/schemas/task';
import { inTransaction } from './reactions';

export type MailSettings = Pick<Config, 'publicUrl' | 'emailVerification' | 'authSecret' | 'invitationTtlDays' | 'inbound'>;

/**
 * Mail the changes cause, queued in the mail outbox in the change's transaction (decision 0012): the invitation,
 * 'assigned to you' for a new assignee, 'mentioned' / 'new comment' for a comment, the account's emailed links, and
 * the notices that its password or address changed.
 */
export function mailSubscriber(settings: MailSettings): Subscriber {
  const domain = settings.inbound?.domain ?? null;
  // With mail in set up (issue 40), a mail about a task carries a reply address for it and its recipient.
  const replyAddress = (tx: Tx, taskId: string): ReplyAddressFor | undefined =>
    domain ? (userId) => issueReplyAddress(tx, domain, taskId, userId) : undefined;
  const assigned = async (tx: Tx, actorId: string | null, task: TaskDto) => {
    if (!task.assigneeId || !actorId) return;
    const mail = await taskAssignedMail(tx, settings, {
      actorId,
      assigneeId: task.assigneeId,
      task,
      projectName: task.projectName,
      replyAddress: replyAddress(tx, task.id),
    });
    if (mail) await enqueueMail(tx, mail);
  };
  const passwordChanged = (tx: Tx, email: string, signedOut: boolean) =>
    enqueueMail(tx, {
      kind: 'password_changed',
      to: email,
      ...passwordChangedMail({ email, forgotUrl: `${settings.publicUrl}/forgot-password`, signedOut }),
    });
  return inTransaction('mail', {
    'invitation.sent': async (c, _actor, tx) => {
      const mail = await invitationMailFor(tx, settings, c.invitationId);
      if (mail) await enqueueMail(tx, mail);
    },
    // The schedule's tasks (a system actor, decision 0027) are their series' creator's, as in realtime and webhooks.
    'task.created': (c, actor, tx) => assigned(tx, actorUserId(actor) ?? c.task.creatorId, c.task),
    // A request form's confirmation to the requester (issue 40), with the link to follow the request.
    'request.received': (c, _actor, tx) => enqueueMail(tx, requestReceivedMail(c)),
    'task.updated': (c, actor, tx) =>
      c.after.assigneeId && c.after.assigneeId !== c.before.assigneeId ? assigned(tx, actorUserId(actor), c.after) : undefined,
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
        replyAddress: replyAddress(tx, c.task.id),
      });
      await enqueueMails(tx, mails);
    },
    'account.link_issued': (c, _actor, tx) => enqueueMail(tx, accountLinkMail(settings.publicUrl, c)),
    'account.password_changed': (c, _actor, tx) => passwordChanged(tx, c.email, false),
    'account.password_reset': (c, _actor, tx) => passwordChanged(tx, c.email, true),
    // To the address the account left, so that its owner learns of a change they did not make.
    'account.email_changed': (c, _actor, tx) =>
      enqueueMail(tx, { kind: 'email_changed', to: c.oldEmail, ...emailChangedMail(c) }),
    'note.mentioned': async (c, _actor, tx) => enqueueMails(tx, await noteMentionMails(tx, settings, c)),
  });
}
