import { describe, expect, it } from 'vitest';
import { presetRule } from '../../domain/recurrence';
import { countAllowsMore, midnightIn, nextOccurrence, occurrencesBetween, ruleCount, todayIn } from './recurrence';

/** The dates a rule makes after `anchor`, one after another (as the series makes them), `n` of them. */
function chain(rule: string, anchor: string, n: number): string[] {
  const dates: string[] = [];
  let after = anchor;
  for (let i = 0; i < n; i++) {
    const next = nextOccurrence(rule, anchor, after);
    if (next === null) break;
    dates.push(next);
    after = next;
  }
  return dates;
}

describe('nextOccurrence', () => {
  it('weekly on Monday stays Monday across both daylight-saving changes (Berlin, New York)', () => {
    const rule = 'FREQ=WEEKLY;BYDAY=MO';
    // Europe/Berlin springs forward on Sunday 2026-03-29 and falls back on Sunday 2026-10-25.
    expect(chain(rule, '2026-03-23', 2)).toEqual(['2026-03-30', '2026-04-06']);
    expect(chain(rule, '2026-10-19', 2)).toEqual(['2026-10-26', '2026-11-02']);
    // America/New_York: 2026-03-08 and 2026-11-01.
    expect(chain(rule, '2026-03-02', 2)).toEqual(['2026-03-09', '2026-03-16']);
    expect(chain(rule, '2026-10-26', 2)).toEqual(['2026-11-02', '2026-11-09']);
  });

  it('daily counts calendar days through a 23-hour and a 25-hour day', () => {
    expect(chain('FREQ=DAILY', '2026-03-28', 3)).toEqual(['2026-03-29', '2026-03-30', '2026-03-31']);
    expect(chain('FREQ=DAILY', '2026-10-24', 3)).toEqual(['2026-10-25', '2026-10-26', '2026-10-27']);
  });

  it("monthly on day 31 takes a shorter month's last day (Feb 28, Feb 29 in a leap year, Apr 30)", () => {
    const rule = presetRule('monthly', '2027-01-31')!;
    expect(rule).toBe('FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1');
    expect(chain(rule, '2027-01-31', 4)).toEqual(['2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31']);
    expect(chain(rule, '2028-01-31', 2)).toEqual(['2028-02-29', '2028-03-31']);
    // Day 30: February's last, then the 30th again.
    expect(chain('FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1', '2027-01-30', 3)).toEqual([
      '2027-02-28',
      '2027-03-30',
      '2027-04-30',
    ]);
    // A plain day stays that day.
    expect(chain('FREQ=MONTHLY;BYMONTHDAY=15', '2027-01-15', 2)).toEqual(['2027-02-15', '2027-03-15']);
  });

  it('every weekday skips the weekend', () => {
    // 2026-11-27 is a Friday.
    expect(chain(presetRule('weekdays', '2026-11-27')!, '2026-11-27', 3)).toEqual(['2026-11-30', '2026-12-01', '2026-12-02']);
  });

  it('intervals count from the anchor (every 2 weeks on Monday and Thursday, every 3 days, every 2 years)', () => {
    expect(chain('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH', '2026-11-30', 4)).toEqual([
      '2026-12-03',
      '2026-12-14',
      '2026-12-17',
      '2026-12-28',
    ]);
    expect(chain('FREQ=DAILY;INTERVAL=3', '2026-11-29', 2)).toEqual(['2026-12-02', '2026-12-05']);
    // From any date after the anchor, the same grid.
    expect(nextOccurrence('FREQ=DAILY;INTERVAL=3', '2026-11-29', '2026-12-03')).toBe('2026-12-05');
    expect(chain('FREQ=YEARLY;INTERVAL=2', '2028-02-29', 1)).toEqual(['2032-02-29']);
  });

  it('a weekly rule with no weekday takes the anchor\'s, and the anchor itself is not "after" it', () => {
    expect(nextOccurrence('FREQ=WEEKLY', '2026-12-02', '2026-12-02')).toBe('2026-12-09');
    // A date before the anchor: the anchor is the first date when it fits the rule.
    expect(nextOccurrence('FREQ=WEEKLY', '2026-12-02', '2026-11-01')).toBe('2026-12-02');
  });

  it('UNTIL ends the rule on its date (included); COUNT is left to the caller', () => {
    const until = 'FREQ=WEEKLY;BYDAY=MO;UNTIL=20261214';
    expect(chain(until, '2026-11-30', 5)).toEqual(['2026-12-07', '2026-12-14']);
    expect(nextOccurrence(until, '2026-11-30', '2026-12-14')).toBeNull();
    // COUNT=2: the library does not stop it (the series counts its tasks), the caller does.
    expect(chain('FREQ=DAILY;COUNT=2', '2026-11-30', 4)).toHaveLength(4);
    expect(ruleCount('FREQ=DAILY;COUNT=2')).toBe(2);
    expect(ruleCount('FREQ=DAILY')).toBeNull();
    expect(countAllowsMore('FREQ=DAILY;COUNT=2', 1)).toBe(true);
    expect(countAllowsMore('FREQ=DAILY;COUNT=2', 2)).toBe(false);
    expect(countAllowsMore('FREQ=DAILY', 10_000)).toBe(true);
  });
});

describe('occurrencesBetween', () => {
  it('lists the dates in a range, both ends included, at most `limit`', () => {
    const rule = 'FREQ=WEEKLY;BYDAY=MO,FR';
    expect(occurrencesBetween(rule, '2026-11-30', '2026-12-04', '2026-12-14', 10)).toEqual([
      '2026-12-04',
      '2026-12-07',
      '2026-12-11',
      '2026-12-14',
    ]);
    expect(occurrencesBetween(rule, '2026-11-30', '2026-12-04', '2026-12-14', 2)).toEqual(['2026-12-04', '2026-12-07']);
    expect(occurrencesBetween(rule, '2026-11-30', '2026-12-14', '2026-12-04', 10)).toEqual([]);
    expect(occurrencesBetween('FREQ=DAILY;UNTIL=20261202', '2026-11-30', '2026-11-01', '2026-12-31', 50)).toEqual([
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
    ]);
  });
});

describe('midnightIn', () => {
  it('is 00:00 in the zone, the offset of that day (Berlin winter and summer, New York, UTC)', () => {
    expect(midnightIn('2026-01-15', 'Europe/Berlin').toISOString()).toBe('2026-01-14T23:00:00.000Z');
    expect(midnightIn('2026-07-15', 'Europe/Berlin').toISOString()).toBe('2026-07-14T22:00:00.000Z');
    expect(midnightIn('2026-01-15', 'America/New_York').toISOString()).toBe('2026-01-15T05:00:00.000Z');
    expect(midnightIn('2026-07-15', 'America/New_York').toISOString()).toBe('2026-07-15T04:00:00.000Z');
    expect(midnightIn('2026-07-15', 'UTC').toISOString()).toBe('2026-07-15T00:00:00.000Z');
    expect(midnightIn('2026-07-15', 'Asia/Kolkata').toISOString()).toBe('2026-07-14T18:30:00.000Z');
  });

  it('on and around the days the clocks change', () => {
    // Berlin: the change days themselves start at the old offset (the change is at 02:00/03:00).
    expect(midnightIn('2026-03-29', 'Europe/Berlin').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(midnightIn('2026-03-30', 'Europe/Berlin').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(midnightIn('2026-10-25', 'Europe/Berlin').toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(midnightIn('2026-10-26', 'Europe/Berlin').toISOString()).toBe('2026-10-25T23:00:00.000Z');
    expect(midnightIn('2026-03-08', 'America/New_York').toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(midnightIn('2026-03-09', 'America/New_York').toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(midnightIn('2026-11-01', 'America/New_York').toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(midnightIn('2026-11-02', 'America/New_York').toISOString()).toBe('2026-11-02T05:00:00.000Z');
  });

  it("where the clocks jump over midnight, the day's first moment (Santiago, spring forward at 00:00)", () => {
    // Chile moved its clocks from 00:00 to 01:00 on 2024-09-08: that day starts at 04:00 UTC (01:00 local, UTC-3).
    const start = midnightIn('2024-09-08', 'America/Santiago');
    expect(start.toISOString()).toBe('2024-09-08T04:00:00.000Z');
    expect(todayIn(start, 'America/Santiago')).toBe('2024-09-08');
    expect(todayIn(new Date(start.getTime() - 1000), 'America/Santiago')).toBe('2024-09-07');
  });
});
