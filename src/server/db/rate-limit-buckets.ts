import { sql } from 'drizzle-orm';
import type { DbOrTx } from './client';

/**
 * Takes one token from bucket `key` in one statement (a new bucket starts full), after refilling it
 * at `ratePerSecond` up to `capacity` for the time since its last use. Returns the tokens left:
 * negative when there was none to take. Every app instance on the database shares the buckets.
 */
export async function takeBucketToken(db: DbOrTx, key: string, capacity: number, ratePerSecond: number): Promise<number> {
  const result = (await db.execute(sql`
    insert into rate_limit_buckets (key, tokens, updated_at)
    values (${key}, ${capacity - 1}, now())
    on conflict (key) do update set
      tokens = greatest(-1, least(${capacity}::float8, rate_limit_buckets.tokens
        + extract(epoch from (now() - rate_limit_buckets.updated_at)) * ${ratePerSecond}::float8) - 1),
      updated_at = now()
    returning tokens`)) as unknown as { rows: { tokens: number }[] };
  return Number(result.rows[0]?.tokens ?? 0);
}
