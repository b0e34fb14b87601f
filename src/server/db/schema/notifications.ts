/** What people are told: in-app notifications, their preferences per kind and channel, and the mail outbox. */
import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { MAIL_KINDS, NOTIFICATION_PREFERENCE_KINDS, NOTIFICATION_TYPES } from '../../../domain/constants';
import { createdAt, id, oneOf, requiredRef, textOf, timestamptz } from './columns';
import { users } from './users';

export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: requiredRef('user_id', () => users.id, 'cascade'),
    type: textOf('type', NOTIFICATION_TYPES).notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    isRead: boolean('is_read').notNull().default(false),
    data: jsonb('data').notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.createdAt),
    check('notifications_type_check', oneOf(t.type, NOTIFICATION_TYPES)),
  ],
);

/** Per kind and channel, what a person wants to be told (a missing row: the default, on). */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: requiredRef('user_id', () => users.id, 'cascade'),
    kind: textOf('kind', NOTIFICATION_PREFERENCE_KINDS).notNull(),
    inApp: boolean('in_app').notNull().default(true),
    email: boolean('email').notNull().default(true),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kind] }),
    check('notification_preferences_kind_check', oneOf(t.kind, NOTIFICATION_PREFERENCE_KINDS)),
  ],
);

/**
 * Mail waiting to go out (DESIGN.md "outboxes"): written in the transaction of the change that causes it, delivered by
 * a worker with retries and backoff; `for update skip locked` hands each row to one instance.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: textOf('kind', MAIL_KINDS).notNull(),
    toEmail: text('to_email').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    /** Reply-To (issue 40): a notification about a task carries the task's reply address for its recipient. */
    replyTo: text('reply_to'),
    createdAt: createdAt(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at').notNull().defaultNow(),
    sentAt: timestamptz('sent_at'),
    /** Set when delivery was given up after the last retry. */
    failedAt: timestamptz('failed_at'),
    lastError: text('last_error'),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.nextAttemptAt).where(sql`sent_at is null and failed_at is null`),
    check('mail_outbox_kind_check', oneOf(t.kind, MAIL_KINDS)),
  ],
);
