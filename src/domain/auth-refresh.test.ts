import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  backoffDelay,
  canRetry,
  isRefusedStatus,
  isRetryableStatus,
  refreshWithBackoff,
  shouldRefresh,
  startAutoRefresh,
  type RefreshFailure,
} from './auth-refresh';
import { AUTH_REFRESH } from './constants';

class HttpError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

const classify = (error: unknown): RefreshFailure => {
  const status = error instanceof HttpError ? error.status : 0;
  if (isRefusedStatus(status)) return 'refused';
  return isRetryableStatus(status) ? 'retryable' : 'other';
};

/** Fake timers, the clock at 0, for every test of the calling describe. */
function withFakeTimers() {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
  });
  afterEach(() => vi.useRealTimers());
}

describe('refresh timing rules', () => {
  it('uses the spec constants: 30 s tick, 3 ticks, 200 ms base, 30 s budget', () => {
    expect(AUTH_REFRESH).toMatchObject({ tickMs: 30_000, thresholdTicks: 3, backoffBaseMs: 200, budgetMs: 30_000 });
  });

  it('refreshes when fewer than 90 s remain, not before', () => {
    const now = 1_000_000_000_000;
    const at = (ms: number) => (now + ms) / 1000;
    expect(shouldRefresh(at(91_000), now)).toBe(false);
    expect(shouldRefresh(at(90_000), now)).toBe(false);
    expect(shouldRefresh(at(89_999), now)).toBe(true);
    expect(shouldRefresh(at(20_000), now)).toBe(true);
    expect(shouldRefresh(at(-5_000), now)).toBe(true);
    expect(shouldRefresh(null, now)).toBe(true);
  });

  it('backs off from 200 ms, doubling', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(backoffDelay)).toEqual([200, 400, 800, 1600, 3200, 6400, 12800]);
  });

  it('keeps retries inside the 30 s budget', () => {
    expect(canRetry(1, 0, 0)).toBe(true);
    expect(canRetry(7, 0, 12_700)).toBe(true); // 12.7 s + 12.8 s < 30 s
    expect(canRetry(8, 0, 25_400)).toBe(false); // 25.4 s + 25.6 s > 30 s
    expect(canRetry(1, 0, 29_800)).toBe(false);
  });

  it('retries 502/503/504 and network failures only; 400/401 are refusals', () => {
    for (const s of [502, 503, 504, 0]) expect(isRetryableStatus(s)).toBe(true);
    for (const s of [400, 401, 403, 429, 500]) expect(isRetryableStatus(s)).toBe(false);
    expect(isRefusedStatus(400)).toBe(true);
    expect(isRefusedStatus(401)).toBe(true);
    expect(isRefusedStatus(503)).toBe(false);
  });
});

describe('refreshWithBackoff (fake timers)', () => {
  withFakeTimers();

  it('retries a 503 after 200, 400 and 800 ms, then succeeds', async () => {
    const calls: number[] = [];
    const attempt = vi.fn(async () => {
      calls.push(Date.now());
      if (calls.length < 4) throw new HttpError(503);
    });
    const done = refreshWithBackoff(attempt, classify);
    await vi.runAllTimersAsync();
    await expect(done).resolves.toEqual({ outcome: 'refreshed' });
    expect(calls).toEqual([0, 200, 600, 1400]);
  });

  it('gives up when the 30 s budget is spent', async () => {
    const calls: number[] = [];
    const done = refreshWithBackoff(async () => {
      calls.push(Date.now());
      throw new HttpError(502);
    }, classify);
    await vi.runAllTimersAsync();
    const result = await done;
    expect(result.outcome).toBe('failed');
    // 0, 200, 600, 1400, 3000, 6200, 12600, 25400 — the next wait (25.6 s) would pass 30 s.
    expect(calls).toEqual([0, 200, 600, 1400, 3000, 6200, 12_600, 25_400]);
    expect(calls.at(-1)!).toBeLessThan(AUTH_REFRESH.budgetMs);
  });

  it('does not retry a refusal or a non-retryable error', async () => {
    const refused = vi.fn(async () => {
      throw new HttpError(401);
    });
    await expect(refreshWithBackoff(refused, classify)).resolves.toMatchObject({ outcome: 'refused' });
    expect(refused).toHaveBeenCalledTimes(1);

    const broken = vi.fn(async () => {
      throw new HttpError(500);
    });
    await expect(refreshWithBackoff(broken, classify)).resolves.toMatchObject({ outcome: 'failed' });
    expect(broken).toHaveBeenCalledTimes(1);
  });
});

describe('startAutoRefresh (fake timers)', () => {
  withFakeTimers();

  it('checks every 30 s and refreshes once fewer than 3 ticks remain', async () => {
    let expiresAt = 200; // seconds: 200 s from now
    const refresh = vi.fn(async () => {
      expiresAt = Date.now() / 1000 + 200;
    });
    const onRefused = vi.fn();
    const r = startAutoRefresh({ getExpiresAt: () => expiresAt, refresh, classify, onRefused });
    await vi.advanceTimersByTimeAsync(0);
    expect(refresh).not.toHaveBeenCalled(); // 200 s left
    await vi.advanceTimersByTimeAsync(90_000); // ticks at 30, 60, 90 s: 170, 140, 110 s left
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(30_000); // tick at 120 s: 80 s left
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(Date.now()).toBe(120_000);
    r.stop();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(onRefused).not.toHaveBeenCalled();
  });

  it('with a 20 s lifetime refreshes at start and on every tick', async () => {
    let expiresAt = 20;
    const refresh = vi.fn(async () => {
      expiresAt = Date.now() / 1000 + 20;
    });
    const r = startAutoRefresh({ getExpiresAt: () => expiresAt, refresh, classify, onRefused: vi.fn() });
    await vi.advanceTimersByTimeAsync(0);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(refresh).toHaveBeenCalledTimes(3);
    r.stop();
  });

  it('does nothing while signed out', async () => {
    const refresh = vi.fn(async () => {});
    const r = startAutoRefresh({ getExpiresAt: () => null, refresh, classify, onRefused: vi.fn() });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(refresh).not.toHaveBeenCalled();
    r.stop();
  });

  it('signs out on a refused refresh, and only once per refusal', async () => {
    const refresh = vi.fn(async () => {
      throw new HttpError(400);
    });
    const onRefused = vi.fn();
    const r = startAutoRefresh({ getExpiresAt: () => 10, refresh, classify, onRefused });
    await vi.advanceTimersByTimeAsync(0);
    expect(onRefused).toHaveBeenCalledTimes(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    r.stop();
  });

  it('rides out a short outage with retries inside one tick', async () => {
    let failures = 3;
    let expiresAt = 10;
    const refresh = vi.fn(async () => {
      if (failures-- > 0) throw new HttpError(504);
      expiresAt = Date.now() / 1000 + 3600;
    });
    const onRefused = vi.fn();
    const r = startAutoRefresh({ getExpiresAt: () => expiresAt, refresh, classify, onRefused });
    await vi.advanceTimersByTimeAsync(1_400);
    expect(refresh).toHaveBeenCalledTimes(4);
    expect(expiresAt).toBeGreaterThan(3000);
    expect(onRefused).not.toHaveBeenCalled();
    r.stop();
  });

  it('does not start a second refresh while one is running', async () => {
    let release: () => void = () => {};
    const refresh = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
    );
    const r = startAutoRefresh({ getExpiresAt: () => 10, refresh, classify, onRefused: vi.fn() });
    await vi.advanceTimersByTimeAsync(0);
    void r.tick();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(refresh).toHaveBeenCalledTimes(1);
    release();
    r.stop();
  });
});
