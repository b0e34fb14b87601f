import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { MailKind } from '../../../domain/constants';
import type { DbOrTx } from '../../db/client';
import { mailOutbox } from '../../db/schema';
import type { RenderedMail } from './mail.render';

export interface OutgoingMail extends RenderedMail {
  kind: MailKind;
  to: string;
  /** The Reply-To header: a task's reply address for its recipient (issue 40), when mail in is set up. */
  replyTo?: string;
}

/**
 * Queues a mail in the outbox. Call it with the transaction of the change that causes the mail, so the two commit (or
 * roll back) together; the mail worker delivers it afterwards, with retries.
 */
export async function enqueueMail(db: DbOrTx, mail: OutgoingMail): Promise<void> {
  await enqueueMails(db, [mail]);
}

/** Several mails in one statement; `createdAt` (default: now) is what the daily digest counts a day's mail by. */
export async function enqueueMails(db: DbOrTx, mails: readonly (OutgoingMail & { createdAt?: Date })[]): Promise<void> {
  if (mails.length === 0) return;
  await db.insert(mailOutbox).values(
    mails.map((mail) => ({
      kind: mail.kind,
      toEmail: mail.to,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html,
      replyTo: mail.replyTo ?? null,
      createdAt: mail.createdAt,
    })),
  );
}

export type OutboxRow = typeof mailOutbox.$inferSelect;

const pending = () => and(isNull(mailOutbox.sentAt), isNull(mailOutbox.failedAt));
const afterMs = (ms: number) => sql`now() + ${Math.round(ms)} * interval '1 millisecond'`;

/**
 * Takes up to `limit` due messages for this worker: `for update skip locked` passes over rows another instance is
 * taking at the same moment, and the lease (next attempt pushed `leaseMs` ahead) keeps them from every other worker
 * until this one reports. The claim counts as an attempt, so a message that crashes its sender is given up in the end.
 */
export async function claimDue(db: DbOrTx, limit: number, leaseMs: number): Promise<OutboxRow[]> {
  const due = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(pending(), lte(mailOutbox.nextAttemptAt, sql`now()`)))
    .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await db
    .update(mailOutbox)
    .set({ attempts: sql`${mailOutbox.attempts} + 1`, nextAttemptAt: afterMs(leaseMs) })
    .where(inArray(mailOutbox.id, due))
    .returning();
  return rows.sort((a, b) => a.id - b.id);
}

export async function markSent(db: DbOrTx, id: number): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ sentAt: sql`now()` })
    .where(and(eq(mailOutbox.id, id), isNull(mailOutbox.sentAt)));
}

/** A failed attempt: try again after `retryInMs`, or (null) give the message up. */
export async function markAttemptFailed(db: DbOrTx, id: number, error: string, retryInMs: number | null): Promise<void> {
  await db
    .update(mailOutbox)
    .set(
      retryInMs === null ? { lastError: error, failedAt: sql`now()` } : { lastError: error, nextAttemptAt: afterMs(retryInMs) },
    )
    .where(and(eq(mailOutbox.id, id), pending()));
}

/** Claimed messages this worker did not get to (it is stopping): due again at once, the claim not counted. */
export async function releaseClaims(db: DbOrTx, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(mailOutbox)
    .set({ attempts: sql`greatest(${mailOutbox.attempts} - 1, 0)`, nextAttemptAt: sql`now()` })
    .where(and(inArray(mailOutbox.id, ids), pending()));
}

/** Delivered or given-up messages older than `days` go: the outbox is a queue, not an archive. */
export async function deleteFinishedBefore(db: DbOrTx, days: number): Promise<void> {
  const before = sql`now() - ${days} * interval '1 day'`;
  await db.delete(mailOutbox).where(or(lt(mailOutbox.sentAt, before), lt(mailOutbox.failedAt, before)));
}

/** The admin panel's figures: waiting, delivered and given-up messages, and why the latest undelivered one failed. */
export async function getOutboxStats(db: DbOrTx) {
  const [[counts], [latest]] = await Promise.all([
    db
      .select({
        queued: sql<number>`count(*) filter (where ${mailOutbox.sentAt} is null and ${mailOutbox.failedAt} is null)::int`,
        sent: sql<number>`count(${mailOutbox.sentAt})::int`,
        failed: sql<number>`count(${mailOutbox.failedAt})::int`,
      })
      .from(mailOutbox),
    db
      .select({ lastError: mailOutbox.lastError })
      .from(mailOutbox)
      .where(and(isNull(mailOutbox.sentAt), isNotNull(mailOutbox.lastError)))
      .orderBy(desc(sql`coalesce(${mailOutbox.failedAt}, ${mailOutbox.nextAttemptAt})`), desc(mailOutbox.id))
      .limit(1),
  ]);
  return {
    queued: Number(counts?.queued ?? 0),
    sent: Number(counts?.sent ?? 0),
    failed: Number(counts?.failed ?? 0),
    lastError: latest?.lastError ?? null,
  };
}
