import { wallClock } from '../../../domain/schemas/time-zone';

/** The daily digest goes out at this hour, in each person's own time zone. */
export const DIGEST_HOUR = 8;

export interface DigestWindow {
  /** The local calendar day whose digest is due (YYYY-MM-DD). */
  day: string;
  /** That day's local midnight, as an instant: a digest queued since then is today's. */
  since: Date;
}

/**
 * Whether a person in `zone` (null: UTC) is due a digest at `now`: from 08:00 local time to the end of their day
 * (a server that was down at 08:00 catches up later that day), or null before 08:00. Local midnight is found from
 * the zone's offset at `now`, so on a day whose clocks change it may be an hour off; the digest goes at 08:00 or later.
 */
export function digestWindow(now: Date, zone: string | null): DigestWindow | null {
  const t = wallClock(now, zone);
  if (t.hour < DIGEST_HOUR) return null;
  const offsetMs = t.asUtcMs - Math.floor(now.getTime() / 1000) * 1000;
  return { day: t.date, since: new Date(Date.UTC(t.year, t.month - 1, t.day) - offsetMs) };
}
