// The webhooks module's public surface: its service, and the outbox the change recorder's subscriber and import fill.
export {
  enqueueWebhookEvent,
  memberWebhookEvent,
  projectWebhookEvent,
  taskChangeEvents,
  teamHasActiveWebhook,
  type WebhookEvent,
} from './webhooks.outbox';
export { WebhooksService } from './webhooks.service';
