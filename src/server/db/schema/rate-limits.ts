/** The rate limiter's token buckets. */
import { doublePrecision, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';

/** Token buckets for rate limits, shared by every app instance on one database. */
export const rateLimitBuckets = pgTable('rate_limit_buckets', {
  key: text('key').primaryKey(),
  tokens: doublePrecision('tokens').notNull(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});
