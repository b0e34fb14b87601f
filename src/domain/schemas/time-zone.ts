/**
 * IANA time zones as this JavaScript engine knows them (Intl: the same rules in the browser and on the
 * server). The list is the engine's canonical zones plus UTC, which Intl leaves out of it.
 *
 * Here among the schemas, not beside them, for the client's chunks (vite.config.ts): a schema's imports must be in the
 * entry or in the schemas' own chunk, or the sign-in form, which loads that chunk, would load the page they land in too.
 */
import { z } from 'zod';

/** The time zone field's message (a schema's own text, like common.ts's). */
export const TIME_ZONE_UNKNOWN = 'Please choose a time zone from the list';

let zones: Set<string> | undefined;
const known = () => {
  zones ??= new Set(['UTC', ...Intl.supportedValuesOf('timeZone')]);
  return zones;
};

/** Every zone the Settings page offers, sorted. */
export const timeZoneList = (): string[] => [...known()].sort();

/**
 * True for a zone name the engine knows: a listed one, or any other IANA name it accepts (a link such as
 * `Asia/Kolkata`, which V8 lists as `Asia/Calcutta` and Firefox the other way round). Each part must start with a
 * capital, as IANA names do: offsets ('+01:00') and other spellings ('europe/paris') are refused, so that what is
 * stored reads the same in every engine (the digest's scheduler, any browser).
 */
export function isTimeZone(value: string): boolean {
  if (known().has(value)) return true;
  if (!/^[A-Z][A-Za-z0-9_+-]*(\/[A-Z][A-Za-z0-9_+-]*){0,2}$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * The zone to read a person's clock in: theirs when this engine knows it (isTimeZone), else UTC (none set, or one an
 * engine stored that this one does not know). The one rule for every server reading of a profile's zone.
 */
export const zoneOrUtc = (zone: string | null | undefined): string => (zone && isTimeZone(zone) ? zone : 'UTC');

/** What a clock on the wall in some zone reads at an instant (to the second). */
export interface WallClock {
  /** The local calendar date, YYYY-MM-DD. */
  date: string;
  year: number;
  /** 1 January … 12 December. */
  month: number;
  day: number;
  /** 0–23. */
  hour: number;
  minute: number;
  second: number;
  /** ISO weekday: 1 Monday … 7 Sunday. */
  weekday: number;
  /** The reading as if it were UTC, in milliseconds since the epoch: minus the (whole-second) instant, the zone's offset. */
  asUtcMs: number;
}

/**
 * One formatter per zone name as given, or null where it reads as UTC: building one (and checking the name) costs far
 * more than using it, and the analytics read thousands of instants.
 */
const wallFormats = new Map<string, Intl.DateTimeFormat | null>();
function wallFormat(zone: string | null | undefined): Intl.DateTimeFormat | null {
  const key = zone ?? '';
  let format = wallFormats.get(key);
  if (format === undefined) {
    const name = zoneOrUtc(zone);
    format =
      name === 'UTC'
        ? null
        : new Intl.DateTimeFormat('en-US', {
            timeZone: name,
            hourCycle: 'h23',
            year: 'numeric',
            month: '2-digit',
            day: '2-digit',
            hour: '2-digit',
            minute: '2-digit',
            second: '2-digit',
          });
    wallFormats.set(key, format);
  }
  return format;
}

/** The wall clock in `zone` at `instant`; no zone, or one this engine does not know, reads as UTC (zoneOrUtc). */
export function wallClock(instant: Date | number, zone: string | null | undefined): WallClock {
  const t = typeof instant === 'number' ? instant : instant.getTime();
  const format = wallFormat(zone);
  let asUtcMs = t - (((t % 1000) + 1000) % 1000);
  if (format) {
    const parts: Record<string, number> = {};
    for (const p of format.formatToParts(t)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
    asUtcMs = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  }
  const d = new Date(asUtcMs);
  return {
    date: d.toISOString().slice(0, 10),
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    weekday: ((d.getUTCDay() + 6) % 7) + 1,
    asUtcMs,
  };
}

/** The browser's (or server's) own zone, UTC when it has none. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** How a zone is shown in a list: 'America/New_York' → 'America/New York'. */
export const timeZoneLabel = (zone: string): string => zone.replace(/_/g, ' ');

/** An IANA zone name this engine knows (isTimeZone). */
export const timeZoneInput = z
  .string({ error: TIME_ZONE_UNKNOWN })
  .max(64, TIME_ZONE_UNKNOWN)
  .refine(isTimeZone, TIME_ZONE_UNKNOWN);
