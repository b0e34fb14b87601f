import type { Config } from '../config';
import type { Subscriber } from '../lib/changes';
import type { EventBus } from '../lib/events';
import { activitySubscriber } from './activity';
import { auditSubscriber } from './audit';
import { type MailSettings, mailSubscriber } from './mail';
import { realtimeSubscriber } from './realtime';
import { webhookSubscriber } from './webhooks';

/**
 * A process without the server (the CLI, when no server runs): the audit log alone. What it changes (a system role)
 * has no mail, webhook, history or realtime event; a server started later reads the database as it is.
 */
export const offlineSubscribers = (): Subscriber[] => [auditSubscriber];

/**
 * Every subscriber of the change recorder (issue 34), in the order they run: in the change's transaction the audit row,
 * the history, the webhook deliveries and the mail; after it commits, the realtime events (and through them the
 * notifications and the other instances).
 */
export function subscribers(config: Config | MailSettings, events: EventBus): Subscriber[] {
  return [auditSubscriber, activitySubscriber, webhookSubscriber, mailSubscriber(config), realtimeSubscriber(events)];
}
