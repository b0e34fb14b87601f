import { describe, expect, it } from 'vitest';
import { describeRepeat } from '../../../domain/recurrence';
import {
  buildCustomRule,
  CUSTOM_REPEAT_ERRORS,
  type CustomRepeatState,
  choiceOf,
  choiceOfRule,
  customStateOf,
  NO_REPEAT,
  repeatAnchor,
  repeatInputOf,
  ruleOfChoice,
  sameRepeat,
} from './repeat-choice';

/** A Monday, the 30th of its month. */
const MONDAY = '2026-11-30';
const custom = (over: Partial<CustomRepeatState>): CustomRepeatState => ({ ...customStateOf(null, MONDAY), ...over });

describe('the menu choice of a task', () => {
  it('anchors at the due date, else today', () => {
    expect(repeatAnchor('2026-12-07', '2026-11-29')).toBe('2026-12-07');
    expect(repeatAnchor(null, '2026-11-29')).toBe('2026-11-29');
    expect(repeatAnchor('', '2026-11-29')).toBe('2026-11-29');
  });

  it('reads a preset rule as its preset, any other as custom', () => {
    expect(choiceOf(null, MONDAY)).toEqual(NO_REPEAT);
    expect(choiceOf({ rule: 'FREQ=WEEKLY;BYDAY=MO', mode: 'on_schedule' }, MONDAY)).toEqual({
      preset: 'weekly',
      customRule: null,
      mode: 'on_schedule',
    });
    // Weekly on Tuesday is no preset for a Monday: it stays as it is, custom.
    expect(choiceOf({ rule: 'FREQ=WEEKLY;BYDAY=TU', mode: 'on_completion' }, MONDAY)).toEqual({
      preset: 'custom',
      customRule: 'FREQ=WEEKLY;BYDAY=TU',
      mode: 'on_completion',
    });
    expect(choiceOf({ rule: 'FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1', mode: 'on_completion' }, MONDAY).preset).toBe(
      'monthly',
    );
  });

  it("sends the preset's rule for the anchor it has when sent, and the dialog's rule as it is", () => {
    const weekly = { preset: 'weekly', customRule: null, mode: 'on_completion' } as const;
    expect(ruleOfChoice(weekly, MONDAY)).toBe('FREQ=WEEKLY;BYDAY=MO');
    // The due date moved to a Wednesday: 'Weekly on Wednesday'.
    expect(ruleOfChoice(weekly, '2026-12-02')).toBe('FREQ=WEEKLY;BYDAY=WE');
    expect(repeatInputOf(weekly, MONDAY, 'Europe/Berlin')).toEqual({
      rule: 'FREQ=WEEKLY;BYDAY=MO',
      mode: 'on_completion',
      timezone: 'Europe/Berlin',
    });
    expect(repeatInputOf(NO_REPEAT, MONDAY, 'UTC')).toBeNull();
    const own = { preset: 'custom', customRule: 'FREQ=DAILY;INTERVAL=3', mode: 'on_schedule' } as const;
    expect(repeatInputOf(own, '2027-01-01', 'UTC')?.rule).toBe('FREQ=DAILY;INTERVAL=3');
  });

  it('calls a built rule that is a preset by the preset', () => {
    expect(choiceOfRule('FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', 'on_schedule', MONDAY).preset).toBe('weekdays');
    expect(choiceOfRule('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO', 'on_schedule', MONDAY).preset).toBe('custom');
  });

  it('sees no change where the same rule and mode would be sent', () => {
    const weekly = { preset: 'weekly', customRule: null, mode: 'on_completion' } as const;
    expect(sameRepeat(weekly, { ...weekly }, MONDAY)).toBe(true);
    expect(sameRepeat(weekly, { ...weekly, mode: 'on_schedule' }, MONDAY)).toBe(false);
    expect(sameRepeat(weekly, { preset: 'custom', customRule: 'FREQ=WEEKLY;BYDAY=MO', mode: 'on_completion' }, MONDAY)).toBe(
      true,
    );
    // Not repeating either way: the mode does not matter.
    expect(sameRepeat(NO_REPEAT, { ...NO_REPEAT, mode: 'on_schedule' }, MONDAY)).toBe(true);
    expect(sameRepeat(NO_REPEAT, weekly, MONDAY)).toBe(false);
  });
});

describe("the 'Custom…' dialog", () => {
  it("starts from every week on the anchor's weekday, or from the rule it edits", () => {
    expect(customStateOf(null, MONDAY)).toEqual({
      interval: '1',
      freq: 'WEEKLY',
      byDay: ['MO'],
      end: 'never',
      until: '2026-12-28',
      count: '10',
    });
    expect(customStateOf('FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=6', MONDAY)).toMatchObject({
      interval: '2',
      byDay: ['TU', 'TH'],
      end: 'after',
      count: '6',
    });
    expect(customStateOf('FREQ=YEARLY;UNTIL=20301231', MONDAY)).toMatchObject({ freq: 'YEARLY', end: 'on', until: '2030-12-31' });
    expect(customStateOf('not a rule', MONDAY).freq).toBe('WEEKLY');
  });

  it('builds every N days, weeks, months and years', () => {
    expect(buildCustomRule(custom({ freq: 'DAILY', interval: '3' }), MONDAY)).toEqual({
      ok: true,
      rule: 'FREQ=DAILY;INTERVAL=3',
    });
    expect(buildCustomRule(custom({ interval: '2', byDay: ['TH', 'MO'] }), MONDAY)).toEqual({
      ok: true,
      rule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH',
    });
    // Monthly on the anchor's day; from the 29th on, a shorter month takes its last day.
    const monthly = buildCustomRule(custom({ freq: 'MONTHLY' }), MONDAY);
    expect(monthly).toEqual({ ok: true, rule: 'FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1' });
    expect(buildCustomRule(custom({ freq: 'MONTHLY', interval: '2' }), '2026-12-07')).toEqual({
      ok: true,
      rule: 'FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=7',
    });
    expect(buildCustomRule(custom({ freq: 'YEARLY' }), MONDAY)).toEqual({ ok: true, rule: 'FREQ=YEARLY' });
    // Weekdays do not belong to other units: kept in the fields, left out of the rule.
    expect(buildCustomRule(custom({ freq: 'DAILY', byDay: ['FR'] }), MONDAY)).toEqual({ ok: true, rule: 'FREQ=DAILY' });
  });

  it('ends never, on a date or after N times', () => {
    expect(buildCustomRule(custom({ end: 'on', until: '2027-01-31' }), MONDAY)).toEqual({
      ok: true,
      rule: 'FREQ=WEEKLY;BYDAY=MO;UNTIL=20270131',
    });
    expect(buildCustomRule(custom({ end: 'after', count: '5' }), MONDAY)).toEqual({
      ok: true,
      rule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=5',
    });
    // The other end's field is ignored.
    expect(buildCustomRule(custom({ end: 'never', count: 'x', until: '' }), MONDAY)).toEqual({
      ok: true,
      rule: 'FREQ=WEEKLY;BYDAY=MO',
    });
    const built = buildCustomRule(custom({ interval: '2', byDay: ['MO', 'TH'], end: 'after', count: '6' }), MONDAY);
    expect(built.ok && describeRepeat(built.rule)).toBe('Repeats every 2 weeks on Monday and Thursday, 6 times');
  });

  it('refuses what the server would', () => {
    expect(buildCustomRule(custom({ interval: '0' }), MONDAY)).toEqual({
      ok: false,
      errors: { interval: CUSTOM_REPEAT_ERRORS.interval },
    });
    expect(buildCustomRule(custom({ interval: '366' }), MONDAY)).toMatchObject({ ok: false });
    expect(buildCustomRule(custom({ interval: '1.5' }), MONDAY)).toMatchObject({ ok: false });
    expect(buildCustomRule(custom({ byDay: [] }), MONDAY)).toEqual({ ok: false, errors: { byDay: CUSTOM_REPEAT_ERRORS.byDay } });
    expect(buildCustomRule(custom({ end: 'after', count: '1001' }), MONDAY)).toEqual({
      ok: false,
      errors: { count: CUSTOM_REPEAT_ERRORS.count },
    });
    expect(buildCustomRule(custom({ end: 'on', until: '2026-11-29' }), MONDAY)).toEqual({
      ok: false,
      errors: { until: CUSTOM_REPEAT_ERRORS.until },
    });
    expect(buildCustomRule(custom({ end: 'on', until: '2026-02-30' }), MONDAY)).toMatchObject({ ok: false });
    // The end on the anchor itself is one task: allowed.
    expect(buildCustomRule(custom({ end: 'on', until: MONDAY }), MONDAY)).toMatchObject({ ok: true });
  });
});
