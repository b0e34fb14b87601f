import { commentAsText } from '../../../domain/comment-text';
import { NOTIFICATION_TEXT } from '../../../domain/schemas/notification';
import type { Config } from '../../config';
import type { DbOrTx } from '../../db/client';
import { mayMailUnprompted, type OutgoingMail, type ReplyAddressFor, renderMail, replyParts } from '../mail';
import { listMailRecipients } from './task-comments.repo';

export type CommentMailSettings = Pick<Config, 'publicUrl' | 'emailVerification'>;

export interface NewCommentMailInput {
  actorId: string;
  actorName: string;
  task: { id: string; title: string };
  body: string;
  /** Current names of the people the body mentions (for the excerpt). */
  nameOf: (id: string) => string | undefined;
  /** Mentioned team members: a 'mentioned' mail each. */
  mentionedIds: readonly string[];
  /** The task's watchers: the others get a 'task_comment' mail. */
  watcherIds: readonly string[];
  /** The task's reply address for a recipient (issue 40), when mail in is set up. */
  replyAddress?: ReplyAddressFor;
}

const FOOTER = 'You can turn these emails off in Settings → Notifications.';

/**
 * The mails a new comment causes: 'mentioned' to each person it mentions, 'task_comment' to every other watcher;
 * never to its author, nor to anyone who turned that kind of email off, is deactivated, or (EMAIL_VERIFICATION
 * required) has not proven their address.
 */
export async function newCommentMails(
  db: DbOrTx,
  settings: CommentMailSettings,
  input: NewCommentMailInput,
): Promise<OutgoingMail[]> {
  const mentioned = input.mentionedIds.filter((id) => id !== input.actorId);
  const watching = input.watcherIds.filter((id) => id !== input.actorId && !mentioned.includes(id));
  if (mentioned.length === 0 && watching.length === 0) return [];
  const [toMention, toWatcher] = await Promise.all([
    listMailRecipients(db, mentioned, 'mentioned'),
    listMailRecipients(db, watching, 'task_comment'),
  ]);
  const mayMail = (r: (typeof toMention)[number]) =>
    r.isActive && r.wantsEmail && mayMailUnprompted(r, settings.emailVerification);
  const { actorName, task } = input;
  const url = `${settings.publicUrl}/tasks/${encodeURIComponent(task.id)}`;
  const excerpt = commentAsText(input.body, input.nameOf);
  const mails: OutgoingMail[] = [];
  for (const r of toMention.filter(mayMail)) {
    const { replyTo, footer } = await replyParts(input.replyAddress, r.id, FOOTER);
    mails.push({
      kind: 'mentioned',
      to: r.email,
      ...(replyTo && { replyTo }),
      ...renderMail({
        subject: NOTIFICATION_TEXT.mentioned.message(actorName, task.title),
        heading: NOTIFICATION_TEXT.mentioned.title,
        paragraphs: [`${actorName} mentioned you in a comment on “${task.title}”:`, excerpt],
        action: { label: 'Open the task', url },
        footer,
      }),
    });
  }
  for (const r of toWatcher.filter(mayMail)) {
    const { replyTo, footer } = await replyParts(input.replyAddress, r.id, `You can unwatch the task on its page. ${FOOTER}`);
    mails.push({
      kind: 'task_comment',
      to: r.email,
      ...(replyTo && { replyTo }),
      ...renderMail({
        subject: NOTIFICATION_TEXT.task_comment.message(actorName, task.title),
        heading: NOTIFICATION_TEXT.task_comment.title,
        paragraphs: [`${actorName} commented on “${task.title}”, a task you watch:`, excerpt],
        action: { label: 'Open the task', url },
        footer,
      }),
    });
  }
  return mails;
}
