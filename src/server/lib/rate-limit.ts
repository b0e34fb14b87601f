import { isIP } from 'node:net';
import { AppError } from './errors';

export interface RateLimit {
  capacity: number;
  windowSeconds: number;
}

/**
 * Named limits. Buckets (per IP unless said otherwise): capacity per window, refilled continuously.
 * Failed password sign-ins (`accountIp`, `account`): capacity failures, forgotten after windowSeconds
 * without one (RateLimiter.signIn).
 */
export const RATE_LIMITS = {
  auth: { capacity: 30, windowSeconds: 300 },
  refresh: { capacity: 150, windowSeconds: 300 },
  invite: { capacity: 30, windowSeconds: 3600 },
  /** Emailed links asked for (forgot password, resend verification), per IP. */
  mailLinkIp: { capacity: 10, windowSeconds: 3600 },
  /** …and per address (a reset) or per account (a verification resend): nobody's inbox is flooded. */
  mailLinkTarget: { capacity: 3, windowSeconds: 3600 },
  /** Failures on one account from one IP before each next attempt from there waits (SIGN_IN_DELAY). */
  accountIp: { capacity: 5, windowSeconds: 3600 },
  /** Failures on one account from all IPs before a client that failed there has no free attempt left. */
  account: { capacity: 100, windowSeconds: 3600 },
  /** Second-factor codes tried on one account (all IPs together) before each next attempt waits (SIGN_IN_DELAY). */
  mfa: { capacity: 5, windowSeconds: 3600 },
  /** Wrong calendar feed links fetched, per IP (right ones spend nothing: calendar services fetch many feeds). */
  calendarFeed: { capacity: 120, windowSeconds: 300 },
  /** Imports (Trello, CSV, a Crewboard export; dry runs too), per IP: each may parse up to 20 MiB. */
  import: { capacity: 30, windowSeconds: 3600 },
  /**
   * Failed personal API token authentications (a `cb_` bearer that matches no live token), per IP, before each next
   * `cb_` bearer from there waits (SIGN_IN_DELAY, at most the window) — RateLimiter.apiToken.
   */
  apiToken: { capacity: 30, windowSeconds: 600 },
  /** Issue 40: the public pages' reads (a shared board, a form's definition, a request's status, their streams), per IP. */
  publicRead: { capacity: 300, windowSeconds: 300 },
  /** Form submissions per IP per form (key `<formId>:<ip>`): 10 in 10 minutes. */
  formSubmitIp: { capacity: 10, windowSeconds: 600 },
  /** …and per form, from everyone (key: the form's id): 100 an hour. */
  formSubmitForm: { capacity: 100, windowSeconds: 3600 },
  /** Confirmation mails to one address (key: the address), whatever the form: a spam wave cannot fill the outbox. */
  requestMail: { capacity: 3, windowSeconds: 3600 },
  /** Mails received by one intake address or from one sender (keys `project:<id>`, `from:<address>`), an hour. */
  inboundMail: { capacity: 200, windowSeconds: 3600 },
} as const satisfies Record<string, RateLimit>;

export type RateLimitName = keyof typeof RATE_LIMITS;
/** The token buckets: what a route or a service spends from. */
export type BucketName = Exclude<RateLimitName, 'accountIp' | 'account' | 'mfa' | 'apiToken'>;
/** What a route declares: a bucket, or 'token' (sign-in or refresh, by grant type). */
export type RateLimitRule = BucketName | 'token';
/** Limits that differ from RATE_LIMITS (config.ts reads them from the environment). */
export type RateLimitOverrides = Partial<Record<RateLimitName, Partial<RateLimit>>>;

/** The wait once a client's free sign-in failures are used up: base seconds, doubled by each further failure. */
export const SIGN_IN_DELAY = { baseSeconds: 1, maxSeconds: 900 } as const;

/** A counter of attempts that makes its client wait once `allowance` is used up (RateLimitStore.claim). */
export interface AttemptRule {
  allowance: number;
  /** The wait after the attempt that used the allowance up; it doubles with each further one, up to maxSeconds. */
  baseSeconds: number;
  maxSeconds: number;
  /** A counter not bumped for this long is forgotten (back to zero). */
  forgetSeconds: number;
}

/** Where buckets and counters live (db/rate-limit-buckets.ts): one table shared by every app instance. */
export interface RateLimitStore {
  /** Takes one token from bucket `key` (capacity, refilled at `ratePerSecond`); the tokens left, negative when there was none. */
  take(key: string, capacity: number, ratePerSecond: number): Promise<number>;
  /** Counts an attempt on counter `key` unless its client must wait: 0, or the seconds left to wait. */
  claim(key: string, rule: AttemptRule): Promise<number>;
  /** Adds one to counter `key`; returns the count. */
  count(key: string, forgetSeconds: number): Promise<number>;
  /** Counter `key`, 0 when missing or forgotten. */
  read(key: string, forgetSeconds: number): Promise<number>;
  forget(key: string): Promise<void>;
  /** Deletes the rows under each prefix untouched for its seconds, and any other untouched for `otherSeconds`. */
  prune(rules: readonly { prefix: string; seconds: number }[], otherSeconds: number): Promise<number>;
}

/** What a password sign-in calls around its check of the password (AuthService.signInWithPassword). */
export interface SignInGuard {
  /** Before the check: throws 429 with Retry-After when this client must wait. */
  begin(): Promise<void>;
  /** The password was wrong (or the account unknown). */
  failed(): Promise<void>;
  /** The password was right. */
  succeeded(): Promise<void>;
}

/**
 * The key a client's address is limited under. An IPv4 address is itself (an IPv4-mapped IPv6 one, `::ffff:a.b.c.d`,
 * too); an IPv6 address is its /64, written `2001:db8:1:2::/64`: one subscriber usually holds a whole /64 (often far
 * more), so counting each of its 2^64 addresses apart would let one client guess from as many addresses as it likes.
 * Anything that is not an address (a test's made-up name) is left as it is.
 */
export function ipKey(ip: string): string {
  const address = ip.split('%')[0] ?? ip;
  if (isIP(address) !== 6) return ip;
  const groups = ipv6Groups(address);
  if (!groups) return ip;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 part read as two groups). */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const part = (s: string) => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return null;
  const groups = [...left, ...new Array<number>(missing).fill(0), ...right];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

const UNGUARDED: SignInGuard = { begin: async () => {}, failed: async () => {}, succeeded: async () => {} };

const rateLimited = (seconds: number) =>
  new AppError('rate_limited', { headers: { 'retry-after': String(Math.max(1, Math.ceil(seconds))) } });

/**
 * Token buckets and sign-in failure counters kept in the database, so every app instance on one
 * database shares them: a second instance is not a second allowance.
 */
export class RateLimiter {
  constructor(
    private readonly store: RateLimitStore,
    readonly enabled: boolean,
    private readonly overrides: RateLimitOverrides = {},
  ) {}

  /** A route's rule (config.rateLimit) for a request from `ip` (keyed by ipKey: an IPv6 client by its /64). */
  async consume(rule: RateLimitRule, ip: string, grantType?: string): Promise<void> {
    if (!this.enabled) return;
    const name: BucketName = rule === 'token' ? (grantType === 'refresh_token' ? 'refresh' : 'auth') : rule;
    await this.takeForIp(name, ip);
  }

  /** Takes one token from bucket `name` of the client at `ip` (ipKey: an IPv6 client by its /64). */
  takeForIp(name: BucketName, ip: string): Promise<void> {
    return this.take(name, ipKey(ip));
  }

  /** Takes one token from bucket `name:key`, or throws 429 with Retry-After. */
  async take(name: BucketName, key: string): Promise<void> {
    if (!this.enabled) return;
    const { capacity, windowSeconds } = this.limit(name);
    const rate = capacity / windowSeconds;
    const tokens = await this.store.take(`${name}:${key}`, capacity, rate);
    if (tokens < 0) throw rateLimited(-tokens / rate);
  }

  /**
   * The guard of a password sign-in to `email` from `ip`, after GoTrue and OWASP: failures are counted,
   * not attempts. Each account and IP pair has `accountIp` failures free, then every next attempt from
   * there waits 1, 2, 4 … seconds (SIGN_IN_DELAY) after the last; once the account has `account`
   * recent failures from all IPs, a client that has failed there has no free attempt left. A client
   * that has not failed on the account is never held back by others' failures: nobody can lock the
   * owner out, and a distributed guess gets one try per IP before the waits begin.
   */
  signIn(email: string, ip: string): SignInGuard {
    if (!this.enabled) return UNGUARDED;
    const account = email.trim().toLowerCase();
    const perClient = this.limit('accountIp');
    const perAccount = this.limit('account');
    const clientKey = `accountIp:${ipKey(ip)}|${account}`;
    const accountKey = `account:${account}`;
    return {
      begin: async () => {
        const underAttack = (await this.store.read(accountKey, perAccount.windowSeconds)) >= perAccount.capacity;
        await this.claimAttempt(clientKey, underAttack ? 0 : perClient.capacity, perClient.windowSeconds);
      },
      failed: async () => {
        await this.store.count(accountKey, perAccount.windowSeconds);
      },
      // The client's failures are forgiven; the account's stay (an attack on it may go on).
      succeeded: () => this.store.forget(clientKey),
    };
  }

  /**
   * The guard of a second-factor code on account `userId` (signing in, turning two-factor off). Counted per
   * account from every IP together: the password (or a session) is proven already, so a lock-out hurts only
   * someone who has it. `mfa` attempts are free, then each next one waits 1, 2, 4 … seconds after the last
   * (SIGN_IN_DELAY); a right code clears the count. Six digits with three steps accepted give 3 in 10^6 per
   * guess: about 20 guesses in the first hour, then 4 an hour.
   */
  secondFactor(userId: string): SignInGuard {
    if (!this.enabled) return UNGUARDED;
    const { capacity, windowSeconds } = this.limit('mfa');
    const key = `mfa:${userId}`;
    return {
      begin: async () => {
        await this.claimAttempt(key, capacity, windowSeconds);
      },
      // The attempt was counted when it began.
      failed: async () => {},
      succeeded: () => this.store.forget(key),
    };
  }

  /**
   * The guard of a personal API token (a `cb_` bearer) presented from `ip` (ipKey: an IPv6 client by its /64), as a
   * password sign-in's: failures are counted, not uses. `apiToken` failures from there are free; after them each next
   * `cb_` bearer from there — a right one too, it could be the next guess — waits 1, 2, 4 … seconds after the last
   * (SIGN_IN_DELAY, at most the window), and the count is forgotten after a window without one. A right token does not
   * clear the count: one's own token would otherwise reset a guesser's.
   */
  apiToken(ip: string): SignInGuard {
    if (!this.enabled) return UNGUARDED;
    const { capacity, windowSeconds } = this.limit('apiToken');
    const key = `apiToken:${ipKey(ip)}`;
    let counted = false;
    return {
      begin: async () => {
        if ((await this.store.read(key, windowSeconds)) < capacity) return;
        await this.claimAttempt(key, capacity, windowSeconds);
        // Past the free failures, the attempt was counted as it was let through.
        counted = true;
      },
      failed: async () => {
        if (!counted) await this.store.count(key, windowSeconds);
      },
      succeeded: async () => {},
    };
  }

  /**
   * Deletes the rows that are as good as missing, so that random keys (emails, IPs) cannot grow the
   * table: a bucket full again, a counter forgotten. A bucket can sink to −1 token, so it is full
   * again window × (capacity + 1) / capacity after its last use.
   */
  prune(): Promise<number> {
    const rules = (Object.keys(RATE_LIMITS) as RateLimitName[]).map((name) => {
      const { capacity, windowSeconds } = this.limit(name);
      return { prefix: `${name}:`, seconds: Math.ceil((windowSeconds * (capacity + 1)) / capacity) };
    });
    return this.store.prune(rules, Math.max(...rules.map((r) => r.seconds)));
  }

  /**
   * Claims an attempt on the failure counter `key`: `allowance` attempts are free, then each next one waits 1, 2, 4 …
   * seconds after the last (SIGN_IN_DELAY, at most the window); the count is forgotten after a window without one.
   * Throws 429 with Retry-After while the attempt must wait.
   */
  private async claimAttempt(key: string, allowance: number, windowSeconds: number): Promise<void> {
    const wait = await this.store.claim(key, {
      allowance,
      baseSeconds: SIGN_IN_DELAY.baseSeconds,
      maxSeconds: Math.min(SIGN_IN_DELAY.maxSeconds, windowSeconds),
      forgetSeconds: windowSeconds,
    });
    if (wait > 0) throw rateLimited(wait);
  }

  private limit(name: RateLimitName): RateLimit {
    return {
      capacity: this.overrides[name]?.capacity ?? RATE_LIMITS[name].capacity,
      windowSeconds: this.overrides[name]?.windowSeconds ?? RATE_LIMITS[name].windowSeconds,
    };
  }
}
