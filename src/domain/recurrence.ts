/**
 * Recurring tasks (issue 39, decision 0027): the repeat rules Crewboard writes and reads, as RFC 5545 RRULE text
 * (`FREQ=WEEKLY;BYDAY=MO`), without a library — the form builds them, the task page and cards describe them. The
 * server computes dates from them with the `rrule` library (src/server/lib/recurrence.ts); this file only knows the
 * subset it accepts: FREQ (DAILY, WEEKLY, MONTHLY, YEARLY), INTERVAL, BYDAY (plain weekdays), BYMONTHDAY (one day,
 * or 28…n with BYSETPOS=-1: "day n, or the month's last day when it is shorter"), COUNT and UNTIL (a date).
 */
import { REPEAT_LIMITS } from './constants';
import { formatLongDate, parseIsoDate } from './dates';

export const RRULE_WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type RruleWeekday = (typeof RRULE_WEEKDAYS)[number];
export const RRULE_WEEKDAY_NAMES: Record<RruleWeekday, string> = {
  MO: 'Monday',
  TU: 'Tuesday',
  WE: 'Wednesday',
  TH: 'Thursday',
  FR: 'Friday',
  SA: 'Saturday',
  SU: 'Sunday',
};

export const REPEAT_FREQUENCIES = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const;
export type RepeatFrequency = (typeof REPEAT_FREQUENCIES)[number];

/** A repeat rule, read. */
export interface RepeatRule {
  freq: RepeatFrequency;
  /** Every `interval` days/weeks/months/years (1: every one). */
  interval: number;
  /** WEEKLY: the weekdays, Monday first (empty: the anchor's weekday). */
  byDay: RruleWeekday[];
  /** MONTHLY: the day of the month, 1–31; from 29 on, a shorter month takes its last day (null: the anchor's day). */
  monthDay: number | null;
  /** Ends after this many tasks in all (the first included), or null. */
  count: number | null;
  /** Ends on this date (YYYY-MM-DD, the last date a task may have), or null. */
  until: string | null;
}

const WEEKDAY_SET = new Set<string>(RRULE_WEEKDAYS);
const positiveInt = (text: string | undefined, max: number): number | null =>
  text !== undefined && /^[1-9]\d{0,5}$/.test(text) && Number(text) <= max ? Number(text) : null;

/** The rule a text says, or null when it is not one Crewboard accepts (decision 0027's subset). */
export function parseRepeatRule(text: string): RepeatRule | null {
  const body = text.trim().replace(/^RRULE:/i, '');
  if (body === '' || body.length > REPEAT_LIMITS.ruleMax) return null;
  const parts = new Map<string, string>();
  for (const part of body.split(';')) {
    const [key, value, extra] = part.split('=');
    if (!key || value === undefined || extra !== undefined || parts.has(key.toUpperCase())) return null;
    parts.set(key.toUpperCase(), value.toUpperCase());
  }
  const freq = parts.get('FREQ');
  if (!freq || !(REPEAT_FREQUENCIES as readonly string[]).includes(freq)) return null;
  const rule: RepeatRule = { freq: freq as RepeatFrequency, interval: 1, byDay: [], monthDay: null, count: null, until: null };
  for (const [key, value] of parts) {
    switch (key) {
      case 'FREQ':
        break;
      case 'INTERVAL': {
        const n = positiveInt(value, REPEAT_LIMITS.intervalMax);
        if (n === null) return null;
        rule.interval = n;
        break;
      }
      case 'BYDAY': {
        if (rule.freq !== 'WEEKLY') return null;
        const days = value.split(',');
        if (days.some((d) => !WEEKDAY_SET.has(d)) || new Set(days).size !== days.length) return null;
        rule.byDay = RRULE_WEEKDAYS.filter((d) => days.includes(d));
        break;
      }
      case 'BYMONTHDAY': {
        if (rule.freq !== 'MONTHLY') return null;
        const days = value.split(',').map((d) => positiveInt(d, 31));
        if (days.some((d) => d === null)) return null;
        const last = days[days.length - 1]!;
        if (days.length === 1) rule.monthDay = last;
        else {
          // 28,29,…,n with BYSETPOS=-1: day n, or the last day of a shorter month.
          const expected = Array.from({ length: last - 27 }, (_, i) => 28 + i);
          if (last < 29 || days.join() !== expected.join() || parts.get('BYSETPOS') !== '-1') return null;
          rule.monthDay = last;
        }
        break;
      }
      case 'BYSETPOS':
        if (value !== '-1' || !(parts.get('BYMONTHDAY') ?? '').includes(',')) return null;
        break;
      case 'COUNT': {
        const n = positiveInt(value, REPEAT_LIMITS.countMax);
        if (n === null) return null;
        rule.count = n;
        break;
      }
      case 'UNTIL': {
        const m = /^(\d{4})(\d{2})(\d{2})(T\d{6}Z?)?$/.exec(value);
        if (!m) return null;
        const date = `${m[1]}-${m[2]}-${m[3]}`;
        const day = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
        if (day.toISOString().slice(0, 10) !== date) return null;
        rule.until = date;
        break;
      }
      default:
        return null;
    }
  }
  if (rule.count !== null && rule.until !== null) return null;
  return rule;
}

/** The RRULE text of a rule, in one canonical form (what the server stores). */
export function formatRepeatRule(rule: RepeatRule): string {
  const parts = [`FREQ=${rule.freq}`];
  if (rule.interval > 1) parts.push(`INTERVAL=${rule.interval}`);
  if (rule.freq === 'WEEKLY' && rule.byDay.length > 0) parts.push(`BYDAY=${rule.byDay.join(',')}`);
  if (rule.freq === 'MONTHLY' && rule.monthDay !== null) {
    if (rule.monthDay <= 28) parts.push(`BYMONTHDAY=${rule.monthDay}`);
    else {
      const days = Array.from({ length: rule.monthDay - 27 }, (_, i) => 28 + i);
      parts.push(`BYMONTHDAY=${days.join(',')}`, 'BYSETPOS=-1');
    }
  }
  if (rule.count !== null) parts.push(`COUNT=${rule.count}`);
  if (rule.until !== null) parts.push(`UNTIL=${rule.until.replace(/-/g, '')}`);
  return parts.join(';');
}

/** A rule's canonical text, or null when it is not one Crewboard accepts. */
export function normalizeRepeatRule(text: string): string | null {
  const rule = parseRepeatRule(text);
  return rule ? formatRepeatRule(rule) : null;
}

/** The RRULE weekday of a calendar date. */
export function rruleWeekdayOf(date: string): RruleWeekday {
  return RRULE_WEEKDAYS[(parseIsoDate(date).getUTCDay() + 6) % 7]!;
}

/** The choices of the 'Repeat' menu. */
export const REPEAT_PRESETS = ['none', 'daily', 'weekly', 'monthly', 'weekdays', 'custom'] as const;
export type RepeatPreset = (typeof REPEAT_PRESETS)[number];

/** The menu's labels for a task whose dates start at `anchor` (its due date, or today). */
export function repeatPresetLabels(anchor: string): Record<RepeatPreset, string> {
  return {
    none: 'Does not repeat',
    daily: 'Daily',
    weekly: `Weekly on ${RRULE_WEEKDAY_NAMES[rruleWeekdayOf(anchor)]}`,
    monthly: `Monthly on day ${Number(anchor.slice(8, 10))}`,
    weekdays: 'Every weekday',
    custom: 'Custom…',
  };
}

/** The rule of a preset for a task anchored at `anchor` (null: 'Does not repeat'; 'custom' has no rule of its own). */
export function presetRule(preset: Exclude<RepeatPreset, 'custom'>, anchor: string): string | null {
  const base = { interval: 1, byDay: [], monthDay: null, count: null, until: null } satisfies Partial<RepeatRule>;
  switch (preset) {
    case 'none':
      return null;
    case 'daily':
      return formatRepeatRule({ ...base, freq: 'DAILY' });
    case 'weekly':
      return formatRepeatRule({ ...base, freq: 'WEEKLY', byDay: [rruleWeekdayOf(anchor)] });
    case 'monthly':
      return formatRepeatRule({ ...base, freq: 'MONTHLY', monthDay: Number(anchor.slice(8, 10)) });
    case 'weekdays':
      return formatRepeatRule({ ...base, freq: 'WEEKLY', byDay: ['MO', 'TU', 'WE', 'TH', 'FR'] });
  }
}

/** Which preset a stored rule is, for a task anchored at `anchor` ('custom' for any other rule). */
export function presetOf(rule: string | null, anchor: string): RepeatPreset {
  if (rule === null) return 'none';
  const canonical = normalizeRepeatRule(rule);
  for (const preset of ['daily', 'weekly', 'monthly', 'weekdays'] as const) {
    if (canonical !== null && canonical === presetRule(preset, anchor)) return preset;
  }
  return 'custom';
}

const UNIT: Record<RepeatFrequency, [string, string]> = {
  DAILY: ['day', 'days'],
  WEEKLY: ['week', 'weeks'],
  MONTHLY: ['month', 'months'],
  YEARLY: ['year', 'years'],
};
const ADVERB: Record<RepeatFrequency, string> = { DAILY: 'daily', WEEKLY: 'weekly', MONTHLY: 'monthly', YEARLY: 'yearly' };

/** 'Monday', 'Monday and Friday', 'Monday, Wednesday and Friday'. */
function listOf(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/**
 * What a rule means in words, as the task page says it: 'Repeats weekly on Monday', 'Repeats every weekday', 'Repeats
 * every 2 weeks on Monday and Thursday', 'Repeats monthly on day 31', 'Repeats daily, 5 times', 'Repeats yearly, until
 * Dec 31, 2027'. A text that is not a rule: 'Repeats'.
 */
export function describeRepeat(text: string): string {
  const rule = parseRepeatRule(text);
  if (!rule) return 'Repeats';
  const weekdays = rule.freq === 'WEEKLY' && rule.interval === 1 && rule.byDay.join() === 'MO,TU,WE,TH,FR';
  let words = weekdays
    ? 'Repeats every weekday'
    : rule.interval === 1
      ? `Repeats ${ADVERB[rule.freq]}`
      : `Repeats every ${rule.interval} ${UNIT[rule.freq][1]}`;
  if (!weekdays && rule.byDay.length > 0) words += ` on ${listOf(rule.byDay.map((d) => RRULE_WEEKDAY_NAMES[d]))}`;
  if (rule.monthDay !== null) words += ` on day ${rule.monthDay}`;
  if (rule.count !== null) words += `, ${rule.count} ${rule.count === 1 ? 'time' : 'times'}`;
  if (rule.until !== null) words += `, until ${formatLongDate(rule.until)}`;
  return words;
}
