/** What people are told: in-app notifications, their preferences per kind and channel, and the mail outbox. */
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  MAIL_KINDS,
  type MailKind,
  NOTIFICATION_PREFERENCE_KINDS,
  NOTIFICATION_TYPES,
  type NotificationPreferenceKind,
  type NotificationType,
} from '../../../domain/constants';
import { createdAt, id, oneOf } from './columns';
import { users } from './users';

export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').$type<NotificationType>().notNull(),
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
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<NotificationPreferenceKind>().notNull(),
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
    kind: text('kind').$type<MailKind>().notNull(),
    toEmail: text('to_email').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    createdAt: createdAt(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    /** Set when delivery was given up after the last retry. */
    failedAt: timestamp('failed_at', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.nextAttemptAt).where(sql`sent_at is null and failed_at is null`),
    check('mail_outbox_kind_check', oneOf(t.kind, MAIL_KINDS)),
  ],
);
