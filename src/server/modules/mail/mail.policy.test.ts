import { describe, expect, it } from 'vitest';
import { MAIL_RETRY, mayMailUnprompted, retryDelayMs } from './mail.policy';

describe('retryDelayMs', () => {
  it('waits 30 s after the first failure and doubles after each next one', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelayMs(n))).toEqual([30, 60, 120, 240, 480, 960, 1920].map((s) => s * 1000));
  });

  it('never waits more than an hour', () => {
    expect(retryDelayMs(8)).toBe(3_600_000);
    expect(retryDelayMs(MAIL_RETRY.maxAttempts - 1)).toBe(3_600_000);
  });

  it('gives the message up after the last attempt', () => {
    expect(retryDelayMs(MAIL_RETRY.maxAttempts)).toBeNull();
    expect(retryDelayMs(MAIL_RETRY.maxAttempts + 5)).toBeNull();
    expect(retryDelayMs(2, { firstDelayMs: 10, maxDelayMs: 15, maxAttempts: 3 })).toBe(15);
    expect(retryDelayMs(3, { firstDelayMs: 10, maxDelayMs: 15, maxAttempts: 3 })).toBeNull();
  });

  it('spreads 20 attempts over about 13 hours', () => {
    let total = 0;
    for (let n = 1; n < MAIL_RETRY.maxAttempts; n++) total += retryDelayMs(n)!;
    expect(total / 3_600_000).toBeCloseTo(13.06, 2);
  });
});

describe('mayMailUnprompted', () => {
  it('mails any address with verification off, and only proven ones with it required', () => {
    expect(mayMailUnprompted({ emailVerified: false }, 'off')).toBe(true);
    expect(mayMailUnprompted({ emailVerified: false }, 'required')).toBe(false);
    expect(mayMailUnprompted({ emailVerified: true }, 'required')).toBe(true);
  });
});
