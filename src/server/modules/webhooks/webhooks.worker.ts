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
    await Promise.all(claimed.map((delivery) => this.deliver(delivery)));
    return claimed.length;
  }

  private async deliver(delivery: repo.ClaimedDelivery): Promise<void> {
    if (this.loop.signal.aborted) {
      await repo.releaseClaims(this.db, [delivery.id]);
      return;
    }
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
    if (!result.delivered && this.loop.signal.aborted) {
      // Abandoned by the stop: it goes again at the next start, the claim not counted.
      await repo.releaseClaims(this.db, [delivery.id]);
      return;
    }
    const attempt = { statusCode: result.statusCode, durationMs: result.durationMs, error: result.error };
    if (result.delivered) {
      await this.db.transaction(async (tx) => {
        await repo.recordAttempt(tx, delivery.id, attempt);
        await repo.markDelivered(tx, delivery, attempt);
      });
      return;
    }
    this.log.warn({ deliveryId: delivery.id, webhookId: delivery.webhookId, err: result.error }, 'webhooks: delivery failed');
    const notified = await this.db.transaction(async (tx) => {
      await repo.recordAttempt(tx, delivery.id, attempt);
      const retryIn = await this.retryDelay(tx, delivery);
      if (retryIn !== null) {
        await repo.markRetry(tx, delivery.id, attempt, retryIn);
        return [];
      }
      const nowFailing = await repo.markFailed(tx, delivery, attempt);
      return nowFailing ? { hook: nowFailing, notes: await noticeWebhookFailing(tx, this.options.notice, nowFailing) } : [];
    });
    if (!Array.isArray(notified)) {
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
