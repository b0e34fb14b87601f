import type { Db } from '../../db/client';
import { OutboxWorkerBase } from '../../lib/outbox-worker';
import { MAIL_RETRY, type RetryPolicy, retryDelayMs } from './mail.policy';
import * as repo from './mail.repo';
import type { MailTransport } from './mail.transport';

interface Logger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface OutboxWorkerOptions {
  from: string;
  /** How often the outbox is looked at for due mail. */
  pollIntervalMs: number;
  /** Messages claimed at once. */
  batchSize?: number;
  /** How long a claim keeps a message from other workers; far longer than one delivery may take (sendTimeoutMs). */
  leaseMs?: number;
  /** One delivery's limit, the whole SMTP conversation included. */
  sendTimeoutMs?: number;
  /** On stop, how long a delivery under way may still finish before it is abandoned. */
  stopGraceMs?: number;
  retry?: RetryPolicy;
}

const DEFAULTS = { batchSize: 20, leaseMs: 10 * 60_000, sendTimeoutMs: 60_000, stopGraceMs: 5_000, retry: MAIL_RETRY };
/** How long delivered and given-up messages are kept (the admin panel's counts cover this span). */
export const OUTBOX_KEEP_DAYS = 30;

/**
 * Delivers the mail outbox (DESIGN.md "Work that must not be lost: outboxes"). Each pass claims due messages (a
 * lease, `for update skip locked`: with several instances each message is claimed by one), sends them one by one,
 * and records each result: sent, or a retry later with backoff, or given up after the last attempt.
 *
 * No transaction is held open across an SMTP conversation: on PGlite's single connection it would stall every
 * request for as long as the mail server takes. The claim is the lock instead (decision 0012).
 *
 * Delivery is at least once. The one window for a second copy is a crash (or a lost database) after the SMTP
 * server accepted a message and before `sent_at` is written: the lease then runs out and the message goes again.
 * A crash before the server's acceptance loses nothing: the message goes when its lease ends. A clean stop lets
 * the delivery under way finish (stopGraceMs), then abandons it and hands unsent claims back at once.
 */
export class OutboxWorker extends OutboxWorkerBase {
  private readonly options: Required<OutboxWorkerOptions>;

  constructor(
    private readonly db: Db,
    private readonly transport: MailTransport,
    private readonly log: Logger,
    options: OutboxWorkerOptions,
  ) {
    const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
    const resolved = { ...DEFAULTS, ...given } as Required<OutboxWorkerOptions>;
    super('mail', log, resolved, errorText);
    this.options = resolved;
  }

  /** Lets a delivery under way finish (within stopGraceMs), abandons it after, and returns unsent claims. */
  override async stop(): Promise<void> {
    await super.stop();
    this.transport.close();
  }

  protected override prune(): Promise<void> {
    return repo.deleteFinishedBefore(this.db, OUTBOX_KEEP_DAYS);
  }

  /** One batch: how many messages were claimed. */
  protected override async pass(): Promise<number> {
    const claimed = await repo.claimDue(this.db, this.options.batchSize, this.options.leaseMs);
    for (const [i, message] of claimed.entries()) {
      if (this.loop.stopping) {
        await repo.releaseClaims(
          this.db,
          claimed.slice(i).map((m) => m.id),
        );
        break;
      }
      await this.deliver(message);
    }
    return claimed.length;
  }

  private async deliver(message: repo.OutboxRow): Promise<void> {
    const { from, sendTimeoutMs } = this.options;
    try {
      if (this.loop.signal.aborted) throw this.loop.signal.reason;
      await this.transport.send(
        {
          from,
          to: message.toEmail,
          subject: message.subject,
          text: message.textBody,
          html: message.htmlBody,
          ...(message.replyTo && { replyTo: message.replyTo }),
        },
        AbortSignal.any([this.loop.signal, AbortSignal.timeout(sendTimeoutMs)]),
      );
    } catch (err) {
      if (this.loop.signal.aborted) {
        // Abandoned by the stop: whether the server kept it is unknown, so it goes again at the next start.
        await repo.releaseClaims(this.db, [message.id]);
        return;
      }
      const retryIn = retryDelayMs(message.attempts, this.options.retry);
      const error = errorText(err);
      this.log.warn({ mailId: message.id, kind: message.kind, attempts: message.attempts, err: error }, 'mail: delivery failed');
      await repo.markAttemptFailed(this.db, message.id, error, retryIn);
      if (retryIn === null) this.log.error({ mailId: message.id, kind: message.kind, err: error }, 'mail: given up');
      return;
    }
    // Accepted by the server: from here until this write lands, a crash means a second copy (see the class comment).
    await repo.markSent(this.db, message.id);
  }
}

/** An error's message for the outbox row and the log, cut short (an SMTP reply can be long). */
function errorText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.slice(0, 500);
}
