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
