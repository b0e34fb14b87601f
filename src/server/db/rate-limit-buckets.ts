import { sql } from 'drizzle-orm';
import type { AttemptRule, RateLimitStore } from '../lib/rate-limit';
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

type Rows<T> = { rows: T[] };
/*
 * Counters share the table with the buckets: `tokens` holds the count and `updated_at` the time of the
 * last one. A counter left alone for `forgetSeconds` counts as zero, as a missing row does.
 */
const untouchedFor = (seconds: number) => sql`b.updated_at < now() - ${seconds}::float8 * interval '1 second'`;
/** Adds one to counter `key` (restarting at 1 when it was forgotten), if `when` holds for the row it finds. */
const bumpCount = (key: string, forgetSeconds: number, when = sql`true`) => sql`
  insert into rate_limit_buckets as b (key, tokens, updated_at) values (${key}, 1, now())
  on conflict (key) do update set
    tokens = case when ${untouchedFor(forgetSeconds)} then 1 else b.tokens + 1 end,
    updated_at = now()
  where ${when}
  returning b.tokens`;

/**
 * Counts an attempt on counter `key` unless its client must wait: after `allowance` attempts, each
 * next one waits base × 2^(count − allowance) seconds (at most maxSeconds) since the last. In one
 * statement, so parallel attempts cannot all pass on the same count. Returns 0 when the attempt is
 * counted, else the seconds left to wait.
 */
export async function claimAttempt(db: DbOrTx, key: string, rule: AttemptRule): Promise<number> {
  const wait = sql`least(${rule.maxSeconds}::float8, ${rule.baseSeconds}::float8 * power(2::float8, least(60, b.tokens - ${rule.allowance}::float8)))`;
  const due = sql`b.updated_at + ${wait} * interval '1 second' <= now()`;
  const result = (await db.execute(sql`
    with claimed as (${bumpCount(key, rule.forgetSeconds, sql`${untouchedFor(rule.forgetSeconds)} or b.tokens < ${rule.allowance}::float8 or ${due}`)})
    select exists (select 1 from claimed) as claimed,
      (select extract(epoch from b.updated_at + ${wait} * interval '1 second' - now()) from rate_limit_buckets b where b.key = ${key}) as wait`)) as unknown as Rows<{
    claimed: boolean;
    wait: number | null;
  }>;
  const row = result.rows[0];
  // Not claimed, the row was changed by a parallel attempt after this statement's snapshot: wait at least a second.
  return !row || row.claimed ? 0 : Math.max(1, Number(row.wait ?? 0));
}

/** Adds one to counter `key` (forgotten after `forgetSeconds` without one) and returns the count. */
export async function countOne(db: DbOrTx, key: string, forgetSeconds: number): Promise<number> {
  const result = (await db.execute(bumpCount(key, forgetSeconds))) as unknown as Rows<{ tokens: number }>;
  return Number(result.rows[0]?.tokens ?? 0);
}

/** Counter `key`, 0 when missing or forgotten. */
export async function readCount(db: DbOrTx, key: string, forgetSeconds: number): Promise<number> {
  const result = (await db.execute(sql`
    select tokens from rate_limit_buckets b where b.key = ${key} and not (${untouchedFor(forgetSeconds)})`)) as unknown as Rows<{
    tokens: number;
  }>;
  return Number(result.rows[0]?.tokens ?? 0);
}

export async function deleteBucket(db: DbOrTx, key: string): Promise<void> {
  await db.execute(sql`delete from rate_limit_buckets where key = ${key}`);
}

/**
 * Deletes the rows that are as good as missing: a bucket full again, a counter forgotten. A row whose
 * key starts with a rule's prefix goes once untouched for the rule's seconds; any other after
 * `otherSeconds`. Returns how many went.
 */
export async function pruneBuckets(
  db: DbOrTx,
  rules: readonly { prefix: string; seconds: number }[],
  otherSeconds: number,
): Promise<number> {
  const matches = rules.map((r) => sql`(starts_with(b.key, ${r.prefix}) and ${untouchedFor(r.seconds)})`);
  const result = (await db.execute(sql`
    with gone as (delete from rate_limit_buckets b where ${sql.join([...matches, untouchedFor(otherSeconds)], sql` or `)} returning 1)
    select count(*)::int as n from gone`)) as unknown as Rows<{ n: number }>;
  return Number(result.rows[0]?.n ?? 0);
}

/** The limiter's store (lib/rate-limit.ts) on database `db`. */
export function bucketStore(db: DbOrTx): RateLimitStore {
  return {
    take: (key, capacity, ratePerSecond) => takeBucketToken(db, key, capacity, ratePerSecond),
    claim: (key, rule) => claimAttempt(db, key, rule),
    count: (key, forgetSeconds) => countOne(db, key, forgetSeconds),
    read: (key, forgetSeconds) => readCount(db, key, forgetSeconds),
    forget: (key) => deleteBucket(db, key),
    prune: (rules, otherSeconds) => pruneBuckets(db, rules, otherSeconds),
  };
}
