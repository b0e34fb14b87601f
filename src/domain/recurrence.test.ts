import { describe, expect, it } from 'vitest';
import {
  describeRepeat,
  formatRepeatRule,
  normalizeRepeatRule,
  parseRepeatRule,
  presetOf,
  presetRule,
  repeatPresetLabels,
  rruleWeekdayOf,
} from './recurrence';

describe('parseRepeatRule', () => {
  it('reads the subset Crewboard writes, in any order and case', () => {
    expect(parseRepeatRule('FREQ=WEEKLY;BYDAY=MO')).toEqual({
      freq: 'WEEKLY',
      interval: 1,
      byDay: ['MO'],
      monthDay: null,
      count: null,
      until: null,
    });
    expect(parseRepeatRule('rrule:interval=2;freq=weekly;byday=fr,mo;count=5')).toMatchObject({
      interval: 2,
      byDay: ['MO', 'FR'],
      count: 5,
    });
    expect(parseRepeatRule('FREQ=YEARLY;UNTIL=20271231T000000Z')?.until).toBe('2027-12-31');
  });

  it('reads "day n, or the last day of a shorter month" only in its one form', () => {
    expect(parseRepeatRule('FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1')?.monthDay).toBe(31);
    expect(parseRepeatRule('FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1')?.monthDay).toBe(30);
    expect(parseRepeatRule('FREQ=MONTHLY;BYMONTHDAY=15')?.monthDay).toBe(15);
    expect(parseRepeatRule('FREQ=MONTHLY;BYMONTHDAY=28,30,31;BYSETPOS=-1')).toBeNull();
    expect(parseRepeatRule('FREQ=MONTHLY;BYMONTHDAY=28,29,30,31')).toBeNull();
    expect(parseRepeatRule('FREQ=MONTHLY;BYMONTHDAY=15;BYSETPOS=-1')).toBeNull();
  });

  it('refuses what it cannot keep: other frequencies, parts, ordinals, both ends, bad numbers and dates', () => {
    for (const bad of [
      '',
      'FREQ=HOURLY',
      'FREQ=WEEKLY;BYDAY=1MO',
      'FREQ=DAILY;BYDAY=MO',
      'FREQ=WEEKLY;BYDAY=MO,MO',
      'FREQ=DAILY;INTERVAL=0',
      'FREQ=DAILY;INTERVAL=366',
      'FREQ=DAILY;COUNT=1001',
      'FREQ=DAILY;COUNT=2;UNTIL=20270101',
      'FREQ=DAILY;UNTIL=20270230',
      'FREQ=DAILY;FREQ=WEEKLY',
      'FREQ=DAILY;BYHOUR=9',
      'FREQ=DAILY;INTERVAL=1=2',
      'FREQ=MONTHLY;BYMONTHDAY=32',
      `FREQ=DAILY;${'X'.repeat(300)}`,
    ]) {
      expect(parseRepeatRule(bad), bad).toBeNull();
    }
  });
});

describe('formatRepeatRule and normalizeRepeatRule', () => {
  it('write one canonical text, read back as the same rule', () => {
    const texts = [
      'FREQ=DAILY',
      'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH',
      'FREQ=MONTHLY;BYMONTHDAY=28,29;BYSETPOS=-1',
      'FREQ=YEARLY;COUNT=3',
      'FREQ=DAILY;UNTIL=20270101',
    ];
    for (const text of texts) expect(formatRepeatRule(parseRepeatRule(text)!)).toBe(text);
    expect(normalizeRepeatRule('byday=th,mo;freq=weekly;interval=2')).toBe('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH');
    expect(normalizeRepeatRule('FREQ=DAILY;INTERVAL=1')).toBe('FREQ=DAILY');
    expect(normalizeRepeatRule('FREQ=SECONDLY')).toBeNull();
  });
});

describe('presets', () => {
  it("name the anchor's weekday and day of the month", () => {
    // 2026-11-30 is a Monday.
    expect(rruleWeekdayOf('2026-11-30')).toBe('MO');
    expect(rruleWeekdayOf('2026-12-06')).toBe('SU');
    expect(repeatPresetLabels('2026-11-30')).toEqual({
      none: 'Does not repeat',
      daily: 'Daily',
      weekly: 'Weekly on Monday',
      monthly: 'Monthly on day 30',
      weekdays: 'Every weekday',
      custom: 'Custom…',
    });
  });

  it('write their rules, and a stored rule is read back as its preset', () => {
    expect(presetRule('none', '2026-11-30')).toBeNull();
    expect(presetRule('weekly', '2026-11-30')).toBe('FREQ=WEEKLY;BYDAY=MO');
    expect(presetRule('monthly', '2026-11-15')).toBe('FREQ=MONTHLY;BYMONTHDAY=15');
    // From the 29th on, a shorter month takes its last day (31st → 30th, 28th).
    expect(presetRule('monthly', '2026-01-31')).toBe('FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1');
    expect(presetRule('weekdays', '2026-11-30')).toBe('FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR');
    for (const preset of ['daily', 'weekly', 'monthly', 'weekdays'] as const) {
      expect(presetOf(presetRule(preset, '2026-11-30'), '2026-11-30')).toBe(preset);
    }
    expect(presetOf(null, '2026-11-30')).toBe('none');
    // Weekly on another day than the anchor's is a custom rule for this task.
    expect(presetOf('FREQ=WEEKLY;BYDAY=TU', '2026-11-30')).toBe('custom');
    expect(presetOf('FREQ=DAILY;INTERVAL=2', '2026-11-30')).toBe('custom');
  });
});

describe('describeRepeat', () => {
  it('says each rule as the task page shows it', () => {
    expect(describeRepeat('FREQ=WEEKLY;BYDAY=MO')).toBe('Repeats weekly on Monday');
    expect(describeRepeat('FREQ=DAILY')).toBe('Repeats daily');
    expect(describeRepeat('FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR')).toBe('Repeats every weekday');
    expect(describeRepeat('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE,FR')).toBe('Repeats every 2 weeks on Monday, Wednesday and Friday');
    expect(describeRepeat('FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1')).toBe('Repeats monthly on day 31');
    expect(describeRepeat('FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1')).toBe('Repeats every 3 months on day 1');
    expect(describeRepeat('FREQ=DAILY;COUNT=1')).toBe('Repeats daily, 1 time');
    expect(describeRepeat('FREQ=DAILY;COUNT=5')).toBe('Repeats daily, 5 times');
    expect(describeRepeat('FREQ=YEARLY;UNTIL=20271231')).toBe('Repeats yearly, until Dec 31, 2027');
    expect(describeRepeat('not a rule')).toBe('Repeats');
  });
});
