import { and, count, isNull, min, sql } from 'drizzle-orm';
import type { Db } from './client';
import { mailOutbox, webhookDeliveries } from './schema';

/** What an outbox holds that has still to go out: how many rows, and how long the oldest has waited (0 when none). */
export interface OutboxDepth {
  outbox: 'mail' | 'webhooks';
  depth: number;
  oldestAgeSeconds: number;
}

/** Seconds since the oldest of a set of rows was written, read on the database's clock (one clock for every instance). */
const ageOf = (createdAt: typeof mailOutbox.createdAt | typeof webhookDeliveries.createdAt) =>
  sql<number>`coalesce(extract(epoch from now() - ${min(createdAt)}), 0)::float8`;

/**
 * Read when /metrics is scraped, one statement per outbox: the pending rows are those the workers' partial indexes
 * cover (not sent or delivered, not given up), so a long history of sent mail costs nothing here.
 */
export async function readOutboxDepths(db: Db): Promise<OutboxDepth[]> {
  const [mail] = await db
    .select({ depth: count(), age: ageOf(mailOutbox.createdAt) })
    .from(mailOutbox)
    .where(and(isNull(mailOutbox.sentAt), isNull(mailOutbox.failedAt)));
  const [hooks] = await db
    .select({ depth: count(), age: ageOf(webhookDeliveries.createdAt) })
    .from(webhookDeliveries)
    .where(and(isNull(webhookDeliveries.deliveredAt), isNull(webhookDeliveries.failedAt)));
  return [
    { outbox: 'mail', depth: Number(mail?.depth ?? 0), oldestAgeSeconds: Number(mail?.age ?? 0) },
    { outbox: 'webhooks', depth: Number(hooks?.depth ?? 0), oldestAgeSeconds: Number(hooks?.age ?? 0) },
  ];
}
