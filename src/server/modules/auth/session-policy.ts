/** How long a session and a spent refresh token's grace last (decision 0002), in seconds. */
export interface SessionPolicy {
  /** A spent token's unused child is handed back to a retry for this long after the rotation (GoTrue's REFRESH_TOKEN_REUSE_INTERVAL). */
  refreshReuseInterval: number;
  /** A session not refreshed for this long is over (0: no idle limit). */
  idleTimeout: number;
  /** A session older than this is over, however active (0: no absolute limit). */
  maxLifetime: number;
}

const DAY = 24 * 60 * 60;

export const SESSION_DEFAULTS = { refreshReuseInterval: 10, idleDays: 30, maxDays: 90 } as const;

export const DEFAULT_SESSION_POLICY: SessionPolicy = {
  refreshReuseInterval: SESSION_DEFAULTS.refreshReuseInterval,
  idleTimeout: SESSION_DEFAULTS.idleDays * DAY,
  maxLifetime: SESSION_DEFAULTS.maxDays * DAY,
};

export const daysToSeconds = (days: number) => days * DAY;

const secondsSince = (then: Date, now: Date) => (now.getTime() - then.getTime()) / 1000;

/** Why a session may no longer be refreshed, or null while it may. Times come from the database's clock. */
export function sessionExpiry(
  session: { createdAt: Date; refreshedAt: Date | null },
  now: Date,
  policy: SessionPolicy,
): 'max_lifetime' | 'idle' | null {
  if (policy.maxLifetime > 0 && secondsSince(session.createdAt, now) > policy.maxLifetime) return 'max_lifetime';
  if (policy.idleTimeout > 0 && secondsSince(session.refreshedAt ?? session.createdAt, now) > policy.idleTimeout) return 'idle';
  return null;
}

/**
 * True while a spent refresh token may still get its live child back (a retry after a lost
 * response). `usedAt` null: another transaction spent it while this one read it, i.e. just now.
 */
export function isWithinReuseGrace(usedAt: Date | null, now: Date, policy: SessionPolicy): boolean {
  return usedAt === null || secondsSince(usedAt, now) <= policy.refreshReuseInterval;
}
