import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { DEFAULT_SESSION_POLICY, isWithinReuseGrace, type SessionPolicy, sessionExpiry } from './session-policy';

const DAY = 86_400_000;
const now = new Date('2026-06-01T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const policy: SessionPolicy = { refreshReuseInterval: 10, idleTimeout: 30 * 86_400, maxLifetime: 90 * 86_400 };

describe('finding 4: session lifetimes and the reuse grace', () => {
  it('defaults to 10 s of grace, 30 days idle and 90 days in all', () => {
    expect(DEFAULT_SESSION_POLICY).toEqual(policy);
  });

  it('ends a session idle for longer than the idle timeout, counted from sign-in when never refreshed', () => {
    expect(sessionExpiry({ createdAt: ago(40 * DAY), refreshedAt: ago(29 * DAY) }, now, policy)).toBeNull();
    expect(sessionExpiry({ createdAt: ago(40 * DAY), refreshedAt: ago(30 * DAY + 1000) }, now, policy)).toBe('idle');
    expect(sessionExpiry({ createdAt: ago(30 * DAY + 1000), refreshedAt: null }, now, policy)).toBe('idle');
    expect(sessionExpiry({ createdAt: ago(29 * DAY), refreshedAt: null }, now, policy)).toBeNull();
  });

  it('ends a session older than its absolute lifetime, however recently refreshed', () => {
    expect(sessionExpiry({ createdAt: ago(90 * DAY + 1000), refreshedAt: ago(1000) }, now, policy)).toBe('max_lifetime');
    expect(sessionExpiry({ createdAt: ago(89 * DAY), refreshedAt: ago(1000) }, now, policy)).toBeNull();
  });

  it('0 turns the idle and the absolute limits off', () => {
    const off = { ...policy, idleTimeout: 0, maxLifetime: 0 };
    expect(sessionExpiry({ createdAt: ago(1000 * DAY), refreshedAt: null }, now, off)).toBeNull();
  });

  it('hands the live token back only within the reuse interval', () => {
    expect(isWithinReuseGrace(ago(10_000), now, policy)).toBe(true);
    expect(isWithinReuseGrace(ago(10_001), now, policy)).toBe(false);
    // Spent by a concurrent refresh after this one read it: just now.
    expect(isWithinReuseGrace(null, now, policy)).toBe(true);
    expect(isWithinReuseGrace(ago(1), now, { ...policy, refreshReuseInterval: 0 })).toBe(false);
  });

  it('reads REFRESH_REUSE_INTERVAL, SESSION_IDLE_DAYS and SESSION_MAX_DAYS', () => {
    const env = { AUTH_SECRET: 'x'.repeat(32) };
    expect(loadConfig(env).sessions).toEqual(DEFAULT_SESSION_POLICY);
    expect(loadConfig({ ...env, REFRESH_REUSE_INTERVAL: '3', SESSION_IDLE_DAYS: '7', SESSION_MAX_DAYS: '0' }).sessions).toEqual({
      refreshReuseInterval: 3,
      idleTimeout: 7 * 86_400,
      maxLifetime: 0,
    });
    expect(() => loadConfig({ ...env, SESSION_IDLE_DAYS: 'soon' })).toThrow(/SESSION_IDLE_DAYS/);
  });
});
