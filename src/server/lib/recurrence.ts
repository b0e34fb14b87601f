/**
 * Recurring tasks' dates (issue 39, decision 0027), through the `rrule` library. Rules are evaluated on floating
 * calendar dates: a YYYY-MM-DD day stands as its UTC midnight, and DTSTART is the series' anchor date, so 'every
 * Monday' is every Monday whatever daylight saving does in the series' zone; only `midnightIn` turns a date into a
 * moment. COUNT is the caller's (the series' `created_count`: the rule's dates are counted from the first task, not from
 * the anchor); UNTIL is the library's.
 */
import rrulePkg from 'rrule';
import { parseIsoDate } from '../../domain/dates';
import { wallClock } from '../../domain/schemas/time-zone';

// CommonJS: the named exports are on the default one (tsx, vitest and the esbuild bundle alike).
const { RRule } = rrulePkg;
type RRuleInstance = InstanceType<typeof RRule>;

const DAY_MS = 86_400_000;
const isoOf = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The library's rule for a canonical RRULE text (domain recurrence.ts) counted from `anchor`, without COUNT. One per
 * (rule, anchor) is kept: the schedule and the occurrences read the same few series again and again.
 */
const cache = new Map<string, RRuleInstance>();
const CACHE_MAX = 500;
function ruleFrom(rule: string, anchor: string): RRuleInstance {
  const key = `${anchor}|${rule}`;
  let found = cache.get(key);
  if (!found) {
    const { count: _count, ...options } = RRule.parseString(rule.replace(/^RRULE:/i, ''));
    found = new RRule({ ...options, dtstart: parseIsoDate(anchor), tzid: null });
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(key, found);
  }
  return found;
}

/** The rule's first date after `after` (YYYY-MM-DD, exclusive), counted from `anchor`; null when it has no more. */
export function nextOccurrence(rule: string, anchor: string, after: string): string | null {
  const next = ruleFrom(rule, anchor).after(parseIsoDate(after), false);
  return next ? isoOf(next) : null;
}

/** The rule's dates from `from` to `to` (both included), counted from `anchor`; at most `limit` of them, earliest first. */
export function occurrencesBetween(rule: string, anchor: string, from: string, to: string, limit: number): string[] {
  if (limit <= 0 || from > to) return [];
  return ruleFrom(rule, anchor)
    .between(parseIsoDate(from), parseIsoDate(to), true, (_date, i) => i < limit)
    .map(isoOf);
}

/** The RRULE's COUNT (tasks in all, the first one included), or null. */
export function ruleCount(rule: string): number | null {
  return RRule.parseString(rule.replace(/^RRULE:/i, '')).count ?? null;
}

/** Whether a series that has made `createdCount` tasks may make another under its rule's COUNT. */
export const countAllowsMore = (rule: string, createdCount: number): boolean => {
  const count = ruleCount(rule);
  return count === null || createdCount < count;
};

/** The zone's offset from UTC at an instant, in milliseconds (east positive). */
const offsetAt = (ms: number, zone: string) => wallClock(ms, zone).asUtcMs - ms;

/**
 * The moment a calendar day starts in `zone`: 00:00 there, or, where the clocks jump over midnight (a spring-forward
 * at 00:00), the day's first moment. The zone's offset either side of the day is tried: one of them is the day's.
 */
export function midnightIn(date: string, zone: string): Date {
  const base = parseIsoDate(date).getTime();
  const candidates = [...new Set([base - DAY_MS, base, base + DAY_MS].map((t) => base - offsetAt(t, zone)))].sort(
    (a, b) => a - b,
  );
  const onDay = candidates.filter((t) => wallClock(t, zone).date === date);
  const atMidnight = onDay.find((t) => {
    const w = wallClock(t, zone);
    return w.hour === 0 && w.minute === 0;
  });
  // A gap over midnight: the earliest candidate on the day is the moment the clocks jumped (the day's first).
  return new Date(atMidnight ?? onDay[0] ?? candidates[0]!);
}

/** Today's date in `zone` at `now`. */
export const todayIn = (now: Date, zone: string): string => wallClock(now, zone).date;
