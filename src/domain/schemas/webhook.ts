import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from '../constants';
import { isoDateTime, uuid } from './common';

/** Issue 26: a team's webhooks, their deliveries, and what the API says about them. */
export const WEBHOOK_LIMITS = { urlMax: 2000, descriptionMax: 500, perTeamMax: 20, deliveriesPageMax: 100 } as const;

/** The event type of 'Send test event' (not subscribable: every hook receives it when asked). */
export const WEBHOOK_PING_EVENT = 'ping';

const webhookUrl = z
  .string({ error: 'URL is required' })
  .trim()
  .min(1, 'URL is required')
  .max(WEBHOOK_LIMITS.urlMax, `URLs must be at most ${WEBHOOK_LIMITS.urlMax} characters`)
  .refine((s) => {
    if (!URL.canParse(s)) return false;
    const url = new URL(s);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  }, 'Enter a valid http:// or https:// URL')
  .refine((s) => {
    // Credentials in the URL would be shown to every admin of the team in the list: a header-free secret is the signature.
    if (!URL.canParse(s)) return true;
    const url = new URL(s);
    return url.username === '' && url.password === '';
  }, 'Webhook URLs cannot contain a user name or password');

const webhookEvents = z
  .array(z.enum(WEBHOOK_EVENT_TYPES), { error: 'Choose at least one event' })
  .min(1, 'Choose at least one event')
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((events) => WEBHOOK_EVENT_TYPES.filter((e) => events.includes(e)));

const webhookDescription = z
  .string()
  .max(WEBHOOK_LIMITS.descriptionMax, `Descriptions must be at most ${WEBHOOK_LIMITS.descriptionMax} characters`)
  .transform((s) => s.trim())
  .nullish()
  .transform((s) => (s ? s : null));

export const createWebhookInput = z.object({ url: webhookUrl, events: webhookEvents, description: webhookDescription }).strict();
export type CreateWebhookInput = z.infer<typeof createWebhookInput>;

export const updateWebhookInput = z
  .object({
    url: webhookUrl.optional(),
    events: webhookEvents.optional(),
    description: webhookDescription.optional(),
    /** false: paused (no new events are queued; deliveries waiting are held until it is resumed). */
    active: z.boolean().optional(),
  })
  .strict();
export type UpdateWebhookInput = z.infer<typeof updateWebhookInput>;

export const webhookParams = z.object({ id: uuid, webhookId: uuid });
export const webhookDeliveryParams = webhookParams.extend({
  deliveryId: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 53 - 1),
});

/** Active: sending. Paused: switched off by an admin. Failing: deliveries kept failing for 24 hours (still sending). */
export const WEBHOOK_STATUSES = ['active', 'paused', 'failing'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

export const webhookDto = z.object({
  id: uuid,
  teamId: uuid,
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  active: z.boolean(),
  status: z.enum(WEBHOOK_STATUSES),
  failingSince: isoDateTime.nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type WebhookDto = z.infer<typeof webhookDto>;

/** The answer to creation: the hook and its signing secret (`whsec_…`), shown this once. */
export const webhookCreatedDto = webhookDto.extend({ secret: z.string() });
export type WebhookCreatedDto = z.infer<typeof webhookCreatedDto>;

export const webhookListDto = z.object({ webhooks: z.array(webhookDto) });
export type WebhookListDto = z.infer<typeof webhookListDto>;

/** Pending: waiting for its first attempt or a retry. Delivered: a 2xx answer. Failed: retries ran out. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const webhookDeliveryDto = z.object({
  id: z.number().int(),
  /** The `webhook-id` header (the same on every retry of this delivery). */
  messageId: z.string(),
  eventType: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  createdAt: isoDateTime,
  lastStatusCode: z.number().int().nullable(),
  lastDurationMs: z.number().int().nullable(),
  lastError: z.string().nullable(),
  deliveredAt: isoDateTime.nullable(),
  failedAt: isoDateTime.nullable(),
  /** When it is tried next; null once delivered or failed. */
  nextAttemptAt: isoDateTime.nullable(),
});
export type WebhookDeliveryDto = z.infer<typeof webhookDeliveryDto>;

export const listWebhookDeliveriesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(WEBHOOK_LIMITS.deliveriesPageMax).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type ListWebhookDeliveriesQuery = z.infer<typeof listWebhookDeliveriesQuery>;

/** Newest first, a page at a time; `total` counts every delivery the hook still has (kept 30 days). */
export const webhookDeliveryListDto = z.object({ deliveries: z.array(webhookDeliveryDto), total: z.number().int() });
export type WebhookDeliveryListDto = z.infer<typeof webhookDeliveryListDto>;
