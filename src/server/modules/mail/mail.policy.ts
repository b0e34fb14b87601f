import type { EmailVerificationMode } from '../../../domain/constants';

/**
 * When the outbox tries a message again: 30 s after the first failed attempt, then twice as long after each
 * next one, at most an hour apart, and at most 20 attempts (about 13 hours): an SMTP outage of a night delays
 * mail, a message no server takes is given up (failed_at) and shown on the admin panel.
 */
export const MAIL_RETRY: RetryPolicy = { firstDelayMs: 30_000, maxDelayMs: 3_600_000, maxAttempts: 20 };

export interface RetryPolicy {
  firstDelayMs: number;
  maxDelayMs: number;
  maxAttempts: number;
}

/** The wait after the `attempts`-th failed attempt (1-based), or null when the message is given up. */
export function retryDelayMs(attempts: number, policy: RetryPolicy = MAIL_RETRY): number | null {
  if (attempts >= policy.maxAttempts) return null;
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * Whether Crewboard mails a person's address on its own initiative (task assigned, daily digest): with
 * EMAIL_VERIFICATION required only once the address is proven, so that an account registered with someone
 * else's address cannot make Crewboard mail them. The mails that prove or recover an address are not asked.
 */
export const mayMailUnprompted = (user: { emailVerified: boolean }, mode: EmailVerificationMode): boolean =>
  mode === 'off' || user.emailVerified;
