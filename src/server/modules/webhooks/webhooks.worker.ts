import type { Db } from '../../db/client';
import type { EventBus } from '../../lib/events';
import { OutboxWorkerBase } from '../../lib/outbox-worker';
import type { Sealer } from '../oidc';
import { type FailingNoticeSettings, noticeWebhookFailing } from './webhook-failing';
import * as repo from './webhooks.repo';
import { type SendResult, sendWebhook } from './webhooks.sender';

interface Logger {
  warn(obj: object, msg: string): void;
}

/** The wait before each retry: 9 attempts over about 24 hours (the last one 23.6 h after the first). */
export const WEBHOOK_RETRY_DELAYS_MS = [10_000, 60_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 28_800_000, 28_800_000];
/** Retries end this long after the first attempt even if the schedule has more (a long stop shifted it). */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 3_600_000;
/** Delivered and given-up deliveries are kept this long (the delivery log). */
export const WEBHOOK_DELIVERIES_KEEP_DAYS = 30;

export interface WebhookWorkerOptions {
  pollIntervalMs: number;
  timeoutMs: number;
  retryDelaysMs: readonly number[];
  allowPrivate: boolean;
  notice: FailingNoticeSettings;
  /** Deliveries claimed (and sent side by side) at once. */
  batchSize?: number;
  /** How long a claim keeps a delivery from other workers: far longer than one attempt may take. */
  leaseMs?: number;
  stopGraceMs?: number;
}

/**
 * Delivers the webhook outbox, like the mail worker (decision 0012): each pass claims due deliveries under a lease
 * (`for update skip locked`, so with several instances each goes out once), sends them side by side (a slow receiver
 * does not hold the others up beyond one pass), records every attempt, and schedules a retry or gives up. Giving up
 * marks the hook failing and tells the team's owners and admins; a later success clears it.
 *
 * Delivery is at least once: a crash between a receiver's 2xx and the write that records it sends the message again
 * when its lease ends, with the same `webhook-id` (receivers dedupe on it).
 */
export class WebhookWorker extends OutboxWorkerBase {
  private readonly options: Required<WebhookWorkerOptions>;

  constructor(
    private readonly db: Db,
    private readonly sealer: Sealer,
    private readonly events: EventBus,
    private readonly log: Logger,
    options: WebhookWorkerOptions,
  ) {
    const resolved = { batchSize: 10, leaseMs: Math.max(60_000, options.timeoutMs * 6), stopGraceMs: 5_000, ...options };
    super('webhooks', log, resolved);
    this.options = resolved;
  }

  protected override prune(): Promise<void> {
    return repo.deleteFinishedBefore(this.db, WEBHOOK_DELIVERIES_KEEP_DAYS);
  }

  protected override async pass(): Promise<number> {
    const claimed = await repo.claimDue(this.db, this.options.batchSize, this.options.leaseMs);
    if (claimed.length === 0) return 0;
    const sent = await Promise.all(claimed.map((delivery) => this.send(delivery)));
    const abandoned = sent.flatMap((s) => (s.result ? [] : [s.delivery.id]));
    if (abandoned.length > 0) await repo.releaseClaims(this.db, abandoned);
    await this.record(sent.flatMap((s) => (s.result ? [{ delivery: s.delivery, result: s.result }] : [])));
    return claimed.length;
  }

  /** One delivery's HTTP request, no connection held; no result when the stop abandoned it (it goes again). */
  private async send(delivery: repo.ClaimedDelivery): Promise<{ delivery: repo.ClaimedDelivery; result?: SendResult }> {
    if (this.loop.signal.aborted) return { delivery };
    const opened = await this.sealer.open(delivery.secret);
    const secret = typeof opened?.s === 'string' ? opened.s : null;
    const result: SendResult = secret
      ? await sendWebhook(
          { url: delivery.url, secret, messageId: delivery.messageId, body: delivery.body },
          { timeoutMs: this.options.timeoutMs, allowPrivate: this.options.allowPrivate, signal: this.loop.signal },
        )
      : {
          statusCode: null,
          durationMs: 0,
          error: 'the signing secret cannot be opened (AUTH_SECRET changed?)',
          delivered: false,
        };
    // Abandoned by the stop: it goes again at the next start, the claim not counted.
    if (!result.delivered && this.loop.signal.aborted) return { delivery };
    return { delivery, result };
  }

  /**
   * The pass's attempts, in one transaction (one connection, whatever the batch size: a pass once took a connection
   * a delivery, and a batch failing against one hook, each waiting for the hook's row, could hold the whole pool), each
   * delivery in a savepoint of its own so that one that cannot be recorded (its hook deleted meanwhile) spoils no
   * other.
   */
  private async record(sent: { delivery: repo.ClaimedDelivery; result: SendResult }[]): Promise<void> {
    if (sent.length === 0) return;
    for (const { delivery, result } of sent) {
      if (!result.delivered)
        this.log.warn({ deliveryId: delivery.id, webhookId: delivery.webhookId, err: result.error }, 'webhooks: delivery failed');
    }
    type Hook = NonNullable<Awaited<ReturnType<typeof repo.markFailed>>>;
    type Notes = Awaited<ReturnType<typeof noticeWebhookFailing>>;
    const notices = await this.db.transaction(async (tx) => {
      const found: { hook: Hook; notes: Notes }[] = [];
      for (const { delivery, result } of sent) {
        const attempt = { statusCode: result.statusCode, durationMs: result.durationMs, error: result.error };
        try {
          await tx.transaction(async (sp) => {
            await repo.recordAttempt(sp, delivery.id, attempt);
            if (result.delivered) {
              await repo.markDelivered(sp, delivery, attempt);
              return;
            }
            const retryIn = await this.retryDelay(sp, delivery);
            if (retryIn !== null) {
              await repo.markRetry(sp, delivery.id, attempt, retryIn);
              return;
            }
            const nowFailing = await repo.markFailed(sp, delivery, attempt);
            if (nowFailing)
              found.push({ hook: nowFailing, notes: await noticeWebhookFailing(sp, this.options.notice, nowFailing) });
          });
        } catch (err) {
          // Its lease ends and it goes again (at least once), like a crash before this write.
          this.log.warn({ err, deliveryId: delivery.id }, 'webhooks: an attempt could not be recorded');
        }
      }
      return found;
    });
    for (const notified of notices) {
      for (const n of notified.notes) {
        this.events.publish({
          type: 'notification.created',
          teamId: notified.hook.teamId,
          actorId: n.userId,
          userId: n.userId,
          notificationId: n.id,
        });
      }
    }
  }

  /** The wait before the next attempt, or null: the schedule is used up, or the next try would fall past the window. */
  private async retryDelay(
    tx: Parameters<typeof repo.firstAttemptAt>[0],
    delivery: repo.ClaimedDelivery,
  ): Promise<number | null> {
    const delay = this.options.retryDelaysMs[delivery.attempts - 1];
    if (delay === undefined) return null;
    const first = await repo.firstAttemptAt(tx, delivery.id);
    if (Date.now() + delay - first.getTime() > WEBHOOK_RETRY_WINDOW_MS) return null;
    return delay;
  }
}
