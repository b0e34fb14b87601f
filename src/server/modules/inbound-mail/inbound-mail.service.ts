import { Readable } from 'node:stream';
import { anonymousActor, type ChangeActor, userActor } from '../../../domain/changes';
import { LIMITS, OUTSIDE_LIMITS, TASK_DETAIL_LIMITS } from '../../../domain/constants';
import { SUBMITTED_BY_EMAIL } from '../../../domain/outside-texts';
import { canContribute } from '../../../domain/permissions';
import { commentInput } from '../../../domain/schemas/task-detail';
import { createTaskInput } from '../../../domain/schemas/task';
import type { Db } from '../../db/client';
import { getMemberRole } from '../../db/membership';
import type { ChangeRecorder } from '../../lib/changes';
import { AppError } from '../../lib/errors';
import type { RateLimiter } from '../../lib/rate-limit';
import { hashToken } from '../../lib/tokens';
import type { AttachmentsService } from '../attachments';
import type { TaskCommentsService } from '../task-comments';
import type { TasksService } from '../tasks';
import { liveStatuses } from '../workflows';
import { isAtDomain, tokenOf } from './addresses';
import * as repo from './inbound-mail.repo';
import { type InboundMessage, parseMessage, readLimited, replyText, sha256, UnreadableMessage } from './message';
import { INBOUND_MESSAGE_KEEP_DAYS, MAIL_REPLY_KEEP_DAYS } from './reply-address';

/** A task's title (createTaskInput's limit). */
const TITLE_MAX = 200;
/**
 * Addresses of ours looked up for one mail (RCPTs, or To/Cc/Delivered-To/X-Original-To): a mail that names thousands
 * costs no more than this many look-ups.
 */
const MAX_TARGETS_TRIED = 20;
/** The title of a mail without a subject. */
export const NO_SUBJECT = '(no subject)';

/**
 * What became of a mail: a task, a comment, nothing (dropped, and why: logged and kept in inbound_messages), a second
 * delivery of one already taken ('duplicate'), or not now ('deferred': over the rate limit, or a failure; the sender's
 * server or the IMAP poller tries again later).
 */
export type ReceiveResult =
  | { outcome: 'task' | 'comment'; taskId: string }
  | { outcome: 'duplicate' }
  | { outcome: 'dropped' | 'deferred'; reason: string };

type IntakeTarget = NonNullable<Awaited<ReturnType<typeof repo.findIntakeByHash>>>;
type ReplyTarget = NonNullable<Awaited<ReturnType<typeof repo.findReplyByHash>>>;
/** Where a mail goes: a project's intake, or a task's reply address for one person. */
type Target = { kind: 'intake'; intake: IntakeTarget } | { kind: 'reply'; reply: ReplyTarget };

export interface InboundMailDeps {
  db: Db;
  changes: ChangeRecorder;
  rateLimiter: RateLimiter;
  tasks: TasksService;
  comments: TaskCommentsService;
  attachments: AttachmentsService;
  /** INBOUND_MAIL_DOMAIN. */
  domain: string;
  /** MAX_UPLOAD_MB in bytes: a larger attachment is left out. */
  maxUploadBytes: number;
  /** MAIL_FROM's address: mail from it is ours coming back. */
  ownAddress: string | null;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/** Reply addresses older than MAIL_REPLY_KEEP_DAYS and received-mail rows older than INBOUND_MESSAGE_KEEP_DAYS go. */
export const pruneReceivedMail = (db: Db): Promise<void> => repo.prune(db, MAIL_REPLY_KEEP_DAYS, INBOUND_MESSAGE_KEEP_DAYS);

const cap = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Mail in, one path (decision 0028): the SMTP listener and the IMAP poller both hand each raw message to `receive`.
 * To a project's intake address it becomes a task; to a reply address, the comment of the person it was given to,
 * only when it comes from their address. The task or comment and the message's row in inbound_messages are written in
 * one transaction: a message delivered twice makes one.
 */
export class InboundMail {
  constructor(private readonly deps: InboundMailDeps) {}

  /**
   * Whether `address` is one a mail may be sent to: at INBOUND_MAIL_DOMAIN, with a live intake or reply token (the
   * SMTP listener refuses any other at RCPT).
   */
  async accepts(address: string): Promise<boolean> {
    return (await this.target([address])) !== null;
  }

  isOurDomain(address: string): boolean {
    return isAtDomain(address, this.deps.domain);
  }

  async receive(raw: Buffer | Readable, envelope?: { to: string[] }): Promise<ReceiveResult> {
    const bytes = await readLimited(raw, OUTSIDE_LIMITS.inboundMessageBytes);
    if (!bytes) {
      this.deps.log.warn({ limit: OUTSIDE_LIMITS.inboundMessageBytes }, 'inbound mail: dropped, too large');
      return { outcome: 'dropped', reason: 'too_large' };
    }
    let mail: InboundMessage;
    try {
      mail = await parseMessage(bytes);
    } catch (error) {
      if (!(error instanceof UnreadableMessage)) throw error;
      // Known by its bytes: the same message handed in again is not parsed again.
      const unread = {
        hash: sha256(bytes),
        from: null,
        subject: '',
        body: '',
        headerRecipients: [],
        automatic: false,
        attachments: [],
      };
      if (await repo.messageSeen(this.deps.db, unread.hash)) return { outcome: 'duplicate' };
      return this.drop(unread, error.reason);
    }
    if (await repo.messageSeen(this.deps.db, mail.hash)) return { outcome: 'duplicate' };
    const target = await this.target(envelope?.to.length ? envelope.to : mail.headerRecipients);
    if (!target) return this.drop(mail, 'unknown_address');
    if (mail.automatic) return this.drop(mail, 'automatic');
    if (!mail.from) return this.drop(mail, 'no_sender');
    if (this.deps.ownAddress && mail.from === this.deps.ownAddress) return this.drop(mail, 'own_address');
    try {
      await this.deps.rateLimiter.take('inboundMail', `from:${mail.from}`);
      if (target.kind === 'intake') await this.deps.rateLimiter.take('inboundMail', `project:${target.intake.projectId}`);
    } catch (error) {
      if (error instanceof AppError && error.reason === 'rate_limited') {
        this.deps.log.warn({ from: mail.from }, 'inbound mail: deferred, over the rate limit');
        return { outcome: 'deferred', reason: 'rate_limited' };
      }
      throw error;
    }
    return target.kind === 'intake' ? this.makeTask(mail, target.intake) : this.makeComment(mail, target.reply);
  }

  /** The first address of ours among `addresses` with a live token. */
  private async target(addresses: readonly string[]): Promise<Target | null> {
    const tokens = addresses.map((address) => tokenOf(address, this.deps.domain)).filter((t): t is string => t !== null);
    for (const token of [...new Set(tokens)].slice(0, MAX_TARGETS_TRIED)) {
      const hash = hashToken(token);
      const intake = await repo.findIntakeByHash(this.deps.db, hash);
      if (intake) return { kind: 'intake', intake };
      const reply = await repo.findReplyByHash(this.deps.db, hash);
      if (reply) return { kind: 'reply', reply };
    }
    return null;
  }

  private async makeTask(mail: InboundMessage, intake: IntakeTarget): Promise<ReceiveResult> {
    const { db, changes } = this.deps;
    const from = mail.from!;
    // A viewer or a guest mails in as anyone outside the team would (issue 41): the task is not theirs to create.
    const mayAdd = async (userId: string | null | undefined) =>
      userId ? canContribute(await getMemberRole(db, intake.teamId, userId)) : false;
    const verified = await repo.findVerifiedMember(db, intake.teamId, from);
    const member = verified && (await mayAdd(verified.id)) ? verified : undefined;
    const enabler = (await mayAdd(intake.enabledById)) ? intake.enabledById : null;
    const creatorId = member?.id ?? (await repo.memberOrOwner(db, intake.teamId, enabler));
    const [first] = await liveStatuses(db, intake.projectId);
    const files = this.acceptedFiles(mail);
    const left = mail.attachments.length - files.length;
    const note =
      left > 0
        ? `\n\n_${left} attachment${left === 1 ? ' was' : 's were'} left out (over ${Math.round(this.deps.maxUploadBytes / 1048576)} MB, or more than ${OUTSIDE_LIMITS.inboundAttachmentsMax})._`
        : '';
    const description = cap(mail.body, LIMITS.descriptionMax - note.length) + note;
    const parsed = createTaskInput.safeParse({
      projectId: intake.projectId,
      title: cap(mail.subject.replace(/\s+/g, ' ').trim(), TITLE_MAX) || NO_SUBJECT,
      description: description.trim() || null,
      ...(first && { status: first.key }),
    });
    if (!parsed.success) return this.drop(mail, 'invalid');
    const input = parsed.data;
    const actor: ChangeActor = member ? userActor(member.id, from) : anonymousActor(from);
    let task: Awaited<ReturnType<TasksService['createIn']>> | null;
    try {
      task = await changes.run(db, actor, async (tx, record) => {
        if (!(await repo.claimMessage(tx, { messageHash: mail.hash, outcome: 'task' }))) return null;
        const created = await this.deps.tasks.createIn(tx, record, creatorId, input, { via: 'email', name: null, email: from });
        await repo.setMessageTask(tx, mail.hash, created.id);
        return created;
      });
    } catch (error) {
      // The project cannot take the task (archived, gone, full): a second delivery would fare no better.
      if (error instanceof AppError) return this.drop(mail, error.reason);
      throw error;
    }
    if (!task) return { outcome: 'duplicate' };
    this.deps.log.info(
      { taskId: task.id, projectId: intake.projectId, files: files.length },
      `inbound mail: ${SUBMITTED_BY_EMAIL}`,
    );
    // The files after the task: the store is not written inside a transaction (decision 0012's reason for the outbox).
    for (const file of files) {
      await this.deps.attachments
        .upload(userActor(creatorId), task.id, async () => ({ fileName: file.fileName, stream: Readable.from(file.content) }))
        .catch((error) => this.deps.log.warn({ err: error, taskId: task.id }, 'inbound mail: an attachment was not stored'));
    }
    return { outcome: 'task', taskId: task.id };
  }

  /** The attachments taken: each within MAX_UPLOAD_MB, at most inboundAttachmentsMax. */
  private acceptedFiles(mail: InboundMessage) {
    return mail.attachments.filter((a) => a.size <= this.deps.maxUploadBytes).slice(0, OUTSIDE_LIMITS.inboundAttachmentsMax);
  }

  private async makeComment(mail: InboundMessage, reply: ReplyTarget): Promise<ReceiveResult> {
    const { db, changes } = this.deps;
    if (!reply.isActive || reply.email.toLowerCase() !== mail.from) return this.drop(mail, 'wrong_sender', reply.taskId);
    const body = cap(replyText(mail.body), TASK_DETAIL_LIMITS.commentMax);
    const parsed = commentInput.safeParse({ body });
    if (!parsed.success) return this.drop(mail, 'empty', reply.taskId);
    try {
      const comment = await changes.run(db, userActor(reply.userId, mail.from), async (tx, record) => {
        const claimed = await repo.claimMessage(tx, { messageHash: mail.hash, outcome: 'comment', taskId: reply.taskId });
        if (!claimed) return null;
        return this.deps.comments.createIn(tx, record, reply.userId, reply.taskId, parsed.data);
      });
      if (!comment) return { outcome: 'duplicate' };
    } catch (error) {
      // The task is gone or no longer theirs to see, or the reply mentions someone outside the team.
      if (error instanceof AppError) return this.drop(mail, error.reason, reply.taskId);
      throw error;
    }
    return { outcome: 'comment', taskId: reply.taskId };
  }

  /** Nothing is made of the mail: logged, and kept (with why) so that a second delivery is not looked at again. */
  private async drop(mail: InboundMessage, reason: string, taskId: string | null = null): Promise<ReceiveResult> {
    await repo.claimMessage(this.deps.db, { messageHash: mail.hash, outcome: 'dropped', reason, taskId });
    this.deps.log.info({ reason, from: mail.from, taskId }, 'inbound mail: dropped');
    return { outcome: 'dropped', reason };
  }
}
