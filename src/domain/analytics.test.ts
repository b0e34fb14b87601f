import { describe, expect, it } from 'vitest';
import {
  CYCLE_TIME_BUCKETS,
  cycleTimeBucket,
  isoWeekday,
  localDateIn,
  mondayOf,
  monthStarts,
  percentileCont,
  resolvePeriod,
  roundHours,
  startOfLocalDay,
  weekOf,
  weekWindows,
  wholeDaysSince,
  zoneOffsetMs,
} from './analytics';

const iso = (d: Date) => d.toISOString();

describe('cycle-time buckets', () => {
  it('are the seven of the page, each [min, max) hours, the last open-ended', () => {
    expect(CYCLE_TIME_BUCKETS.map((b) => b.label)).toEqual([
      '< 1 day',
      '1–2 days',
      '2–4 days',
      '4–7 days',
      '1–2 weeks',
      '2–4 weeks',
      '4 weeks or more',
    ]);
    expect(CYCLE_TIME_BUCKETS.map((b) => [b.minHours, b.maxHours])).toEqual([
      [0, 24],
      [24, 48],
      [48, 96],
      [96, 168],
      [168, 336],
      [336, 672],
      [672, null],
    ]);
    // Contiguous: each starts where the one before ends.
    for (let i = 1; i < CYCLE_TIME_BUCKETS.length; i++) {
      expect(CYCLE_TIME_BUCKETS[i]!.minHours).toBe(CYCLE_TIME_BUCKETS[i - 1]!.maxHours);
    }
  });

  it('put a time in the bucket whose range holds it', () => {
    expect(cycleTimeBucket(0)).toBe(0);
    expect(cycleTimeBucket(23.99)).toBe(0);
    expect(cycleTimeBucket(24)).toBe(1);
    expect(cycleTimeBucket(95.9)).toBe(2);
    expect(cycleTimeBucket(167.99)).toBe(3);
    expect(cycleTimeBucket(168)).toBe(4);
    expect(cycleTimeBucket(671.99)).toBe(5);
    expect(cycleTimeBucket(672)).toBe(6);
    expect(cycleTimeBucket(10_000)).toBe(6);
  });
});

describe('percentileCont (PostgreSQL percentile_cont)', () => {
  it('is null with no value and the value itself with one', () => {
    expect(percentileCont([], 0.5)).toBeNull();
    expect(percentileCont([7], 0.85)).toBe(7);
  });

  it('interpolates linearly at rank p × (n − 1) of the sorted values', () => {
    expect(percentileCont([48, 6], 0.5)).toBe(27);
    expect(percentileCont([6, 48], 0.85)).toBeCloseTo(41.7, 10);
    expect(percentileCont([4, 1, 3, 2], 0.5)).toBe(2.5);
    expect(percentileCont([1, 2, 3, 4, 5], 0.5)).toBe(3);
    // rank 0.85 × 9 = 7.65: 8 + 0.65 × (9 − 8)
    expect(percentileCont([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.85)).toBeCloseTo(8.65, 10);
    expect(percentileCont([3, 1, 2], 0)).toBe(1);
    expect(percentileCont([3, 1, 2], 1)).toBe(3);
  });

  it('is given in hours to two decimals', () => {
    expect(roundHours(41.699999)).toBe(41.7);
    expect(roundHours(10 / 3)).toBe(3.33);
  });
});

describe('weeks (Monday to Sunday)', () => {
  it('number the days from Monday and find the Monday of any day', () => {
    expect(isoWeekday('2025-03-03')).toBe(1);
    expect(isoWeekday('2025-03-09')).toBe(7);
    expect(mondayOf('2025-03-09')).toBe('2025-03-03');
    expect(mondayOf('2025-03-10')).toBe('2025-03-10');
    expect(mondayOf('2025-01-01')).toBe('2024-12-30');
  });
});

describe('time zones', () => {
  it('read an instant’s offset and local date in a zone', () => {
    expect(zoneOffsetMs(new Date('2025-01-15T12:00:00Z'), 'Europe/Paris')).toBe(3_600_000);
    expect(zoneOffsetMs(new Date('2025-07-15T12:00:00Z'), 'Europe/Paris')).toBe(7_200_000);
    expect(zoneOffsetMs(new Date('2025-07-15T12:00:00Z'), 'UTC')).toBe(0);
    expect(zoneOffsetMs(new Date('2025-07-15T12:00:00Z'), 'Asia/Kolkata')).toBe(19_800_000);
    expect(localDateIn(new Date('2025-03-16T23:30:00Z'), 'UTC')).toBe('2025-03-16');
    expect(localDateIn(new Date('2025-03-16T23:30:00Z'), 'Europe/Paris')).toBe('2025-03-17');
    expect(localDateIn(new Date('2025-03-17T03:00:00Z'), 'America/New_York')).toBe('2025-03-16');
  });

  it('put an instant in the week of its local date: 23:30 on Sunday in Paris and in UTC', () => {
    // 23:30 on Sunday in Paris (22:30 UTC) is the same week in both; 23:30 UTC is already Monday in Paris.
    expect(weekOf(new Date('2025-03-16T22:30:00Z'), 'Europe/Paris')).toBe('2025-03-10');
    expect(weekOf(new Date('2025-03-16T22:30:00Z'), 'UTC')).toBe('2025-03-10');
    expect(weekOf(new Date('2025-03-16T23:30:00Z'), 'Europe/Paris')).toBe('2025-03-17');
    expect(weekOf(new Date('2025-03-16T23:30:00Z'), 'UTC')).toBe('2025-03-10');
  });

  it('find when a local date begins, across daylight-saving changes', () => {
    expect(iso(startOfLocalDay('2025-03-10', 'UTC'))).toBe('2025-03-10T00:00:00.000Z');
    expect(iso(startOfLocalDay('2025-03-10', 'Europe/Paris'))).toBe('2025-03-09T23:00:00.000Z');
    // Paris goes to summer time on Sunday 30 March 2025 at 02:00: the Monday after begins at 22:00 UTC.
    expect(iso(startOfLocalDay('2025-03-30', 'Europe/Paris'))).toBe('2025-03-29T23:00:00.000Z');
    expect(iso(startOfLocalDay('2025-03-31', 'Europe/Paris'))).toBe('2025-03-30T22:00:00.000Z');
    expect(iso(startOfLocalDay('2025-10-27', 'Europe/Paris'))).toBe('2025-10-26T23:00:00.000Z');
    expect(iso(startOfLocalDay('2025-03-10', 'America/New_York'))).toBe('2025-03-10T04:00:00.000Z');
    expect(iso(startOfLocalDay('2025-03-10', 'Asia/Kolkata'))).toBe('2025-03-09T18:30:00.000Z');
    // Chile skips midnight (00:00 → 01:00 on 8 September 2024): the day begins at 01:00 local.
    expect(iso(startOfLocalDay('2024-09-08', 'America/Santiago'))).toBe('2024-09-08T04:00:00.000Z');
    // …and goes back from 00:00 to 23:00 on 7 April 2024: Sunday begins at the midnight that is kept.
    expect(iso(startOfLocalDay('2024-04-07', 'America/Santiago'))).toBe('2024-04-07T04:00:00.000Z');
  });
});

describe('resolvePeriod', () => {
  it('is this week and the N − 1 before it, up to today (12 by default)', () => {
    const p = resolvePeriod({}, '2025-03-05');
    expect(p.weeks).toHaveLength(12);
    expect(p.weeks[11]).toBe('2025-03-03');
    expect(p.weeks[0]).toBe('2024-12-16');
    expect(p).toMatchObject({ from: '2024-12-16', to: '2025-03-05' });
    expect(resolvePeriod({ weeks: 4 }, '2025-03-09').weeks).toEqual(['2025-02-10', '2025-02-17', '2025-02-24', '2025-03-03']);
    expect(resolvePeriod({ weeks: 26 }, '2025-03-10').weeks).toHaveLength(26);
  });

  it('covers every week touching a custom range, to its last Sunday or today', () => {
    expect(resolvePeriod({ from: '2025-03-05', to: '2025-03-18' }, '2025-06-01')).toEqual({
      weeks: ['2025-03-03', '2025-03-10', '2025-03-17'],
      from: '2025-03-03',
      to: '2025-03-23',
    });
    expect(resolvePeriod({ from: '2025-03-05', to: '2025-03-18' }, '2025-03-19').to).toBe('2025-03-19');
    expect(resolvePeriod({ from: '2025-03-09', to: '2025-03-09' }, '2025-06-01').weeks).toEqual(['2025-03-03']);
    // A range of 366 days touches 53 or 54 weeks.
    expect(resolvePeriod({ from: '2024-01-01', to: '2025-01-01' }, '2025-06-01').weeks).toHaveLength(53);
  });
});

describe('weekWindows', () => {
  it('begin each week at Monday 00:00 in the zone and end it at the next, or now', () => {
    const now = new Date('2025-03-26T12:00:00Z'); // a Wednesday
    const w = weekWindows(['2025-03-17', '2025-03-24'], 'Europe/Paris', now, '2025-03-26');
    expect(w.map((x) => [x.week, iso(x.startAt), iso(x.fullEndAt), iso(x.endAt), x.lastDay])).toEqual([
      ['2025-03-17', '2025-03-16T23:00:00.000Z', '2025-03-23T23:00:00.000Z', '2025-03-23T23:00:00.000Z', '2025-03-23'],
      // The week of the change to summer time ends at 22:00 UTC; the current week's figures are taken now, and
      // its overdue tasks judged on today.
      ['2025-03-24', '2025-03-23T23:00:00.000Z', '2025-03-30T22:00:00.000Z', '2025-03-26T12:00:00.000Z', '2025-03-26'],
    ]);
  });
});

describe('monthStarts and wholeDaysSince', () => {
  it('give the first days of this month and the one before', () => {
    expect(monthStarts('2025-03-15')).toEqual({ current: '2025-03-01', previous: '2025-02-01' });
    expect(monthStarts('2025-01-31')).toEqual({ current: '2025-01-01', previous: '2024-12-01' });
    expect(monthStarts('2024-03-01')).toEqual({ current: '2024-03-01', previous: '2024-02-01' });
  });

  it('count whole days, never below 0', () => {
    const now = new Date('2025-03-10T12:00:00Z');
    expect(wholeDaysSince(new Date('2025-03-10T00:00:00Z'), now)).toBe(0);
    expect(wholeDaysSince(new Date('2025-03-09T12:00:00Z'), now)).toBe(1);
    expect(wholeDaysSince(new Date('2025-03-09T12:00:01Z'), now)).toBe(0);
    expect(wholeDaysSince(new Date('2025-02-01T00:00:00Z'), now)).toBe(37);
    expect(wholeDaysSince(new Date('2025-03-11T00:00:00Z'), now)).toBe(0);
  });
});
