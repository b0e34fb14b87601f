import { AppError } from './errors';

export interface RateLimit {
  capacity: number;
  windowSeconds: number;
}

/** Named limits (per IP unless said otherwise). Capacity per window, refilled continuously. */
export const RATE_LIMITS = {
  auth: { capacity: 30, windowSeconds: 300 },
  refresh: { capacity: 150, windowSeconds: 300 },
  invite: { capacity: 30, windowSeconds: 3600 },
  /** Sign-in attempts per account (email), whatever the IP: stops a spread-out password guess. */
  account: { capacity: 30, windowSeconds: 300 },
} as const satisfies Record<string, RateLimit>;

export type RateLimitName = keyof typeof RATE_LIMITS;
/** What a route declares: a limit name, or 'token' (sign-in or refresh, by grant type). */
export type RateLimitRule = RateLimitName | 'token';
/** Limits that differ from RATE_LIMITS (config.ts reads them from the environment). */
export type RateLimitOverrides = Partial<Record<RateLimitName, Partial<RateLimit>>>;

/**
 * Takes one token from the bucket `key` (capacity, refilled at `ratePerSecond`) and returns the
 * tokens left, negative when there was none (db/rate-limit-buckets.ts).
 */
export type TakeToken = (key: string, capacity: number, ratePerSecond: number) => Promise<number>;

/**
 * Token buckets kept in the database, so every app instance on one database shares them:
 * a second instance is not a second allowance.
 */
export class RateLimiter {
  constructor(
    private readonly takeToken: TakeToken,
    readonly enabled: boolean,
    private readonly overrides: RateLimitOverrides = {},
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
    const capacity = this.overrides[name]?.capacity ?? RATE_LIMITS[name].capacity;
    const windowSeconds = this.overrides[name]?.windowSeconds ?? RATE_LIMITS[name].windowSeconds;
    const rate = capacity / windowSeconds;
    const tokens = await this.takeToken(`${name}:${key}`, capacity, rate);
    if (tokens < 0) {
      const retryAfter = Math.max(1, Math.ceil(-tokens / rate));
      throw new AppError('rate_limited', {
        headers: { 'retry-after': String(retryAfter) },
      });
    }
  }
}
