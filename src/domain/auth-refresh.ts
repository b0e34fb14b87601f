import { AUTH_REFRESH } from './constants';

/**
 * Session auto-refresh rules (spec §4 and §9): every 30 s tick, refresh when fewer than 3 ticks
 * (90 s) remain before expires_at; retry retryable failures with backoff from 200 ms, doubling,
 * within a 30 s budget; a refused refresh signs the user out.
 */

/** True when the session should be refreshed now. `expiresAt` is in seconds, as in the session. */
export function shouldRefresh(expiresAt: number | null | undefined, nowMs: number): boolean {
  if (!expiresAt) return true;
  return expiresAt * 1000 - nowMs < AUTH_REFRESH.tickMs * AUTH_REFRESH.thresholdTicks;
}

/** The wait before retry number `retry` (1-based): 200, 400, 800 ms … */
export function backoffDelay(retry: number): number {
  return AUTH_REFRESH.backoffBaseMs * 2 ** (retry - 1);
}

/** Whether retry number `retry` still ends inside the budget that began at `startedAt`. */
export function canRetry(retry: number, startedAt: number, nowMs: number): boolean {
  return nowMs - startedAt + backoffDelay(retry) < AUTH_REFRESH.budgetMs;
}

/** 502, 503, 504 and network failures (no status) are worth retrying. */
export function isRetryableStatus(status: number | null | undefined): boolean {
  if (status === null || status === undefined || status === 0) return true;
  return (AUTH_REFRESH.retryableStatuses as readonly number[]).includes(status);
}

/** A refresh the server refused: the session is over. */
export function isRefusedStatus(status: number | null | undefined): boolean {
  return status === 400 || status === 401;
}

export type RefreshFailure = 'retryable' | 'refused' | 'other';

export type RefreshResult = { outcome: 'refreshed' } | { outcome: 'refused' | 'failed'; error: unknown };

export interface Clock {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Runs `attempt`, retrying retryable failures with the backoff above until the budget is spent. */
export async function refreshWithBackoff(
  attempt: () => Promise<unknown>,
  classify: (error: unknown) => RefreshFailure,
  clock: Clock = realClock,
): Promise<RefreshResult> {
  const startedAt = clock.now();
  for (let retry = 1; ; retry++) {
    try {
      await attempt();
      return { outcome: 'refreshed' };
    } catch (error) {
      const kind = classify(error);
      if (kind === 'refused') return { outcome: 'refused', error };
      if (kind !== 'retryable' || !canRetry(retry, startedAt, clock.now())) return { outcome: 'failed', error };
      await clock.sleep(backoffDelay(retry));
    }
  }
}

export interface AutoRefreshOptions {
  /** The session's expires_at in seconds, or null when signed out (nothing to do). */
  getExpiresAt: () => number | null;
  refresh: () => Promise<unknown>;
  classify: (error: unknown) => RefreshFailure;
  onRefused: (error: unknown) => void;
  clock?: Clock;
}

export interface AutoRefresher {
  /** Checks once now (also run on every tick). Resolves when any refresh it started is done. */
  tick: () => Promise<void>;
  stop: () => void;
}

/** Starts the 30 s ticker. The first check runs at once. */
export function startAutoRefresh(options: AutoRefreshOptions): AutoRefresher {
  const clock = options.clock ?? realClock;
  let running: Promise<void> | null = null;
  let stopped = false;

  const tick = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) return running;
    const expiresAt = options.getExpiresAt();
    if (expiresAt === null || !shouldRefresh(expiresAt, clock.now())) return Promise.resolve();
    running = (async () => {
      try {
        const result = await refreshWithBackoff(options.refresh, options.classify, clock);
        if (result.outcome === 'refused' && !stopped) options.onRefused(result.error);
      } finally {
        running = null;
      }
    })();
    return running;
  };

  const timer = setInterval(() => void tick(), AUTH_REFRESH.tickMs);
  void tick();
  return {
    tick,
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
