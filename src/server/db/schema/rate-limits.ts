/** The rate limiter's token buckets. */
import { doublePrecision, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Token buckets for rate limits, shared by every app instance on one database. */
export const rateLimitBuckets = pgTable('rate_limit_buckets', {
  key: text('key').primaryKey(),
  tokens: doublePrecision('tokens').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
