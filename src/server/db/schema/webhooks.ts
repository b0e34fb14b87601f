/** Team webhooks, their outbox of deliveries and each attempt. */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import type { WebhookEventType } from '../../../domain/constants';
import { createdAt, id, requiredRef, timestamptz, updatedAt } from './columns';
import { teams } from './teams';
import { users } from './users';

/**
 * A team's webhooks (issue 26): events POSTed to `url`, signed by the Standard Webhooks convention with `secret`
 * (`whsec_…`, sealed with the server's key at rest). `failingSince` is set when deliveries kept failing for 24 hours.
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: id(),
    teamId: requiredRef('team_id', () => teams.id, 'cascade'),
    url: text('url').notNull(),
    events: jsonb('events').$type<WebhookEventType[]>().notNull(),
    /** The signing secret, sealed (never returned after creation). */
    secret: text('secret').notNull(),
    description: text('description'),
    active: boolean('active').notNull().default(true),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    failingSince: timestamptz('failing_since'),
  },
  (t) => [index('webhooks_team_idx').on(t.teamId)],
);

/**
 * The webhook outbox and delivery log: one row per event per hook, written in the transaction of the change that causes
 * it; the worker claims due rows with `for update skip locked` (each delivery goes out once across instances) and retries
 * with exponential backoff for 24 hours. `body` is the exact JSON sent (and signed); `messageId` is `webhook-id`.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    webhookId: requiredRef('webhook_id', () => webhooks.id, 'cascade'),
    messageId: text('message_id').notNull(),
    eventType: text('event_type').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at').notNull().defaultNow(),
    deliveredAt: timestamptz('delivered_at'),
    /** Set when retries ran out (24 hours after the first attempt). */
    failedAt: timestamptz('failed_at'),
    lastStatusCode: integer('last_status_code'),
    lastDurationMs: integer('last_duration_ms'),
    lastError: text('last_error'),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`delivered_at is null and failed_at is null`),
    index('webhook_deliveries_hook_idx').on(t.webhookId, t.createdAt),
  ],
);

/** Each attempt at a delivery (the delivery log's detail): when, how long, the answer's status or the error. */
export const webhookDeliveryAttempts = pgTable(
  'webhook_delivery_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamptz('attempted_at').notNull().defaultNow(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
  },
  (t) => [index('webhook_delivery_attempts_delivery_idx').on(t.deliveryId)],
);
