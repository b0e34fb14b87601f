/**
 * The 'Repeat' control's state (issue 39, decision 0027), apart from its components so that it can be tested: which
 * menu choice a task's rule is, the rule a choice sends, and the 'Custom…' dialog's fields turned into a rule. The rule
 * texts themselves are domain recurrence.ts's; this file only maps the form's fields onto them.
 */
import { REPEAT_LIMITS, type RepeatMode } from '../../../domain/constants';
import { parseCalendarDate } from '../../../domain/calendar';
import { addDays, localIsoDate } from '../../../domain/dates';
import {
  formatRepeatRule,
  normalizeRepeatRule,
  parseRepeatRule,
  presetOf,
  presetRule,
  type RepeatFrequency,
  type RepeatPreset,
  RRULE_WEEKDAYS,
  type RruleWeekday,
  rruleWeekdayOf,
} from '../../../domain/recurrence';
import type { RepeatDto, RepeatInput } from '../../../domain/schemas/repeat';

/** What the 'Repeat' menu and the mode say. A custom rule is kept as its text; a preset's rule follows the anchor. */
export interface RepeatChoice {
  preset: RepeatPreset;
  /** The 'Custom…' dialog's rule (canonical RRULE text), when `preset` is 'custom'. */
  customRule: string | null;
  mode: RepeatMode;
}

/** 'When completed' first: the first mode, and the one that never makes a task nobody asked for. */
export const DEFAULT_REPEAT_MODE: RepeatMode = 'on_completion';
export const NO_REPEAT: RepeatChoice = { preset: 'none', customRule: null, mode: DEFAULT_REPEAT_MODE };

/** What a task's dates start at: its due date, else today (in the viewer's zone). */
export const repeatAnchor = (dueDate: string | null | undefined, today = localIsoDate()): string => dueDate || today;

/** The menu's choice for a task's repeat (a rule that is no preset for this anchor is 'custom'). */
export function choiceOf(repeat: Pick<RepeatDto, 'rule' | 'mode'> | null | undefined, anchor: string): RepeatChoice {
  if (!repeat) return NO_REPEAT;
  const preset = presetOf(repeat.rule, anchor);
  return {
    preset,
    customRule: preset === 'custom' ? (normalizeRepeatRule(repeat.rule) ?? repeat.rule) : null,
    mode: repeat.mode,
  };
}

/** The rule a choice stands for at `anchor` (null: 'Does not repeat', or 'Custom…' with no rule built yet). */
export function ruleOfChoice(choice: RepeatChoice, anchor: string): string | null {
  return choice.preset === 'custom' ? choice.customRule : presetRule(choice.preset, anchor);
}

/** The API's `repeat` for a choice: null to not repeat (or stop). */
export function repeatInputOf(choice: RepeatChoice, anchor: string, timezone: string): RepeatInput | null {
  const rule = ruleOfChoice(choice, anchor);
  return rule === null ? null : { rule, mode: choice.mode, timezone };
}

/** A rule the dialog built, as the menu shows it: a preset when it is one ('Custom…' every week on the anchor's day is 'Weekly'). */
export function choiceOfRule(rule: string, mode: RepeatMode, anchor: string): RepeatChoice {
  return choiceOf({ rule, mode }, anchor);
}

/** Whether two choices send the same thing at `anchor` (nothing to save when they do). */
export const sameRepeat = (a: RepeatChoice, b: RepeatChoice, anchor: string): boolean =>
  ruleOfChoice(a, anchor) === ruleOfChoice(b, anchor) && (ruleOfChoice(a, anchor) === null || a.mode === b.mode);

// The 'Custom…' dialog.

export const REPEAT_ENDS = ['never', 'on', 'after'] as const;
export type RepeatEnd = (typeof REPEAT_ENDS)[number];
export const REPEAT_END_LABELS: Record<RepeatEnd, string> = { never: 'Never', on: 'On', after: 'After' };

/** The dialog's unit menu: singular and plural, as 'Every 1 week' and 'Every 2 weeks' read. */
export const FREQUENCY_UNITS: Record<RepeatFrequency, { one: string; many: string }> = {
  DAILY: { one: 'day', many: 'days' },
  WEEKLY: { one: 'week', many: 'weeks' },
  MONTHLY: { one: 'month', many: 'months' },
  YEARLY: { one: 'year', many: 'years' },
};

/** The dialog's fields, as typed (numbers stay text until checked). */
export interface CustomRepeatState {
  interval: string;
  freq: RepeatFrequency;
  /** WEEKLY: the ticked weekdays. */
  byDay: RruleWeekday[];
  end: RepeatEnd;
  /** end 'on': YYYY-MM-DD. */
  until: string;
  /** end 'after': how many tasks in all. */
  count: string;
}

/** The dialog's texts for fields it refuses. */
export const CUSTOM_REPEAT_ERRORS = {
  interval: `Enter a whole number from 1 to ${REPEAT_LIMITS.intervalMax}`,
  byDay: 'Choose at least one weekday',
  until: 'Choose a date on or after the first one',
  count: `Enter a whole number from 1 to ${REPEAT_LIMITS.countMax}`,
} as const;
export type CustomRepeatField = keyof typeof CUSTOM_REPEAT_ERRORS;

/** Four weeks on from the anchor: the end date the dialog offers before one is chosen. */
const DEFAULT_UNTIL_DAYS = 28;
const DEFAULT_COUNT = '10';

/** The dialog's fields for a rule (or, with none or one it cannot read, every week on the anchor's weekday). */
export function customStateOf(rule: string | null, anchor: string): CustomRepeatState {
  const parsed = rule ? parseRepeatRule(rule) : null;
  const untilDefault = addDays(anchor, DEFAULT_UNTIL_DAYS);
  if (!parsed) {
    return {
      interval: '1',
      freq: 'WEEKLY',
      byDay: [rruleWeekdayOf(anchor)],
      end: 'never',
      until: untilDefault,
      count: DEFAULT_COUNT,
    };
  }
  return {
    interval: String(parsed.interval),
    freq: parsed.freq,
    byDay: parsed.byDay.length > 0 ? parsed.byDay : [rruleWeekdayOf(anchor)],
    end: parsed.count !== null ? 'after' : parsed.until !== null ? 'on' : 'never',
    until: parsed.until ?? untilDefault,
    count: parsed.count !== null ? String(parsed.count) : DEFAULT_COUNT,
  };
}

const wholeNumber = (text: string, max: number): number | null =>
  /^\s*[1-9]\d*\s*$/.test(text) && Number(text) <= max ? Number(text) : null;

export type CustomRepeatResult = { ok: true; rule: string } | { ok: false; errors: Partial<Record<CustomRepeatField, string>> };

/**
 * The rule the dialog's fields say, in canonical form, or what is wrong with them. Weekly takes the ticked weekdays;
 * monthly the anchor's day of the month (the 31st stays the month's last day in shorter months: recurrence.ts); a date
 * end must not come before the anchor.
 */
export function buildCustomRule(state: CustomRepeatState, anchor: string): CustomRepeatResult {
  const errors: Partial<Record<CustomRepeatField, string>> = {};
  const interval = wholeNumber(state.interval, REPEAT_LIMITS.intervalMax);
  if (interval === null) errors.interval = CUSTOM_REPEAT_ERRORS.interval;
  const byDay = state.freq === 'WEEKLY' ? RRULE_WEEKDAYS.filter((d) => state.byDay.includes(d)) : [];
  if (state.freq === 'WEEKLY' && byDay.length === 0) errors.byDay = CUSTOM_REPEAT_ERRORS.byDay;
  const count = state.end === 'after' ? wholeNumber(state.count, REPEAT_LIMITS.countMax) : null;
  if (state.end === 'after' && count === null) errors.count = CUSTOM_REPEAT_ERRORS.count;
  const until = state.end === 'on' ? state.until : null;
  if (until !== null && (parseCalendarDate(until) === null || until < anchor)) {
    errors.until = CUSTOM_REPEAT_ERRORS.until;
  }
  if (Object.keys(errors).length > 0 || interval === null) return { ok: false, errors };
  const rule = formatRepeatRule({
    freq: state.freq,
    interval,
    byDay,
    monthDay: state.freq === 'MONTHLY' ? Number(anchor.slice(8, 10)) : null,
    count,
    until,
  });
  // Whatever the fields, only a rule the server accepts leaves the dialog.
  const canonical = normalizeRepeatRule(rule);
  return canonical === null ? { ok: false, errors: { interval: CUSTOM_REPEAT_ERRORS.interval } } : { ok: true, rule: canonical };
}
