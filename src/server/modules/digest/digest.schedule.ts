/** The daily digest goes out at this hour, in each person's own time zone. */
export const DIGEST_HOUR = 8;

export interface DigestWindow {
  /** The local calendar day whose digest is due (YYYY-MM-DD). */
  day: string;
  /** That day's local midnight, as an instant: a digest queued since then is today's. */
  since: Date;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock in `zone`; an unknown zone reads as UTC (the Settings page stores only known ones). */
function wallClock(now: Date, zone: string | null) {
  const name = zone || 'UTC';
  let format = formats.get(name);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = {
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    };
    try {
      format = new Intl.DateTimeFormat('en-US', { ...options, timeZone: name });
    } catch {
      format = new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' });
    }
    formats.set(name, format);
  }
  const parts = Object.fromEntries(format.formatToParts(now).map((p) => [p.type, p.value]));
  const [year, month, day, hour, minute, second] = ['year', 'month', 'day', 'hour', 'minute', 'second'].map((k) =>
    Number(parts[k]),
  );
  return { year: year!, month: month!, day: day!, hour: hour!, minute: minute!, second: second! };
}

/**
 * Whether a person in `zone` (null: UTC) is due a digest at `now`: from 08:00 local time to the end of their day
 * (a server that was down at 08:00 catches up later that day), or null before 08:00. Local midnight is found from
 * the zone's offset at `now`, so on a day whose clocks change it may be an hour off; the digest goes at 08:00 or later.
 */
export function digestWindow(now: Date, zone: string | null): DigestWindow | null {
  const t = wallClock(now, zone);
  if (t.hour < DIGEST_HOUR) return null;
  const offsetMs = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second) - Math.floor(now.getTime() / 1000) * 1000;
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    day: `${String(t.year).padStart(4, '0')}-${pad(t.month)}-${pad(t.day)}`,
    since: new Date(Date.UTC(t.year, t.month - 1, t.day) - offsetMs),
  };
}
