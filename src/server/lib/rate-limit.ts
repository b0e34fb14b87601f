import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { AppError } from './errors';

/** Named limits (per IP unless said otherwise). Capacity per window, refilled continuously. */
export const RATE_LIMITS = {
  auth: { capacity: 30, windowSeconds: 300 },
  refresh: { capacity: 150, windowSeconds: 300 },
  invite: { capacity: 30, windowSeconds: 3600 },
  /** Sign-in attempts per account (email), whatever the IP: stops a spread-out password guess. */
  account: { capacity: 30, windowSeconds: 300 },
} as const;

export type RateLimitName = keyof typeof RATE_LIMITS;
/** What a route declares: a limit name, or 'token' (sign-in or refresh, by grant type). */
export type RateLimitRule = RateLimitName | 'token';

function envOverride(name: RateLimitName): { capacity: number; windowSeconds: number } {
  const base = RATE_LIMITS[name];
  const cap = Number(process.env[`RATE_LIMIT_${name.toUpperCase()}_MAX`]);
  const win = Number(process.env[`RATE_LIMIT_${name.toUpperCase()}_WINDOW`]);
  return {
    capacity: Number.isFinite(cap) && cap > 0 ? cap : base.capacity,
    windowSeconds: Number.isFinite(win) && win > 0 ? win : base.windowSeconds,
  };
}

/**
 * Token buckets kept in the database, so every app instance on one database shares them:
 * a second instance is not a second allowance.
 */
export class RateLimiter {
  constructor(
    private readonly db: Db,
    readonly enabled: boolean,
  ) {}

  async consume(rule: RateLimitRule, key: string, grantType?: string): Promise<void> {
    if (!this.enabled) return;
    const name: RateLimitName = rule === 'token' ? (grantType === 'refresh_token' ? 'refresh' : 'auth') : rule;
    await this.take(name, key);
  }

  /** Sign-in with a password: one token from the account's own bucket (keyed on the lower-cased email). */
  async consumeAccount(email: string): Promise<void> {
    if (!this.enabled) return;
    await this.take('account', email.trim().toLowerCase());
  }

  /** Takes one token from bucket `name:key`, or throws 429 with Retry-After. */
  async take(name: RateLimitName, key: string): Promise<void> {
    if (!this.enabled) return;
    const { capacity, windowSeconds } = envOverride(name);
    const rate = capacity / windowSeconds;
    const bucket = `${name}:${key}`;
    const result = (await this.db.execute(sql`
      insert into rate_limit_buckets (key, tokens, updated_at)
      values (${bucket}, ${capacity - 1}, now())
      on conflict (key) do update set
        tokens = greatest(-1, least(${capacity}::float8, rate_limit_buckets.tokens
          + extract(epoch from (now() - rate_limit_buckets.updated_at)) * ${rate}::float8) - 1),
        updated_at = now()
      returning tokens`)) as unknown as { rows: { tokens: number }[] };
    const tokens = Number(result.rows[0]?.tokens ?? 0);
    if (tokens < 0) {
      const retryAfter = Math.max(1, Math.ceil(-tokens / rate));
      throw new AppError('rate_limited', 'Too many requests. Please try again later.', {
        headers: { 'retry-after': String(retryAfter) },
      });
    }
  }
}
