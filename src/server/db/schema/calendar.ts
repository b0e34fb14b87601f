/** The personal calendar feeds (iCalendar). */
import { pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from './columns';
import { users } from './users';

/**
 * A person's calendar feed (iCalendar): the secret in its URL, stored only as a SHA-256 hash. One per user; 'Reset link'
 * replaces it, deleting the row revokes it.
 */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamptz('last_used_at'),
  },
  (t) => [uniqueIndex('calendar_feeds_hash_key').on(t.tokenHash)],
);
