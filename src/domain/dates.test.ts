import { describe, expect, it } from 'vitest';
import {
  addDays,
  daysBetween,
  deadlineLabel,
  formatLongDate,
  formatShortDate,
  isOverdue,
  localIsoDate,
  parseIsoDate,
  relativeTime,
  startOfWeek,
  validateStartDate,
  weekdayName,
} from './dates';
import { ERRORS, errorBody, errorStatus } from './errors';

// 2025-03-02 is a Sunday; the week runs Sunday 03-02 to Saturday 03-08.

describe('calendar helpers', () => {
  it('parses only real YYYY-MM-DD dates', () => {
    expect(parseIsoDate('2024-02-29').toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(() => parseIsoDate('2025-02-29')).toThrow(RangeError);
    expect(() => parseIsoDate('2025-13-01')).toThrow(RangeError);
    expect(() => parseIsoDate('2025-3-1')).toThrow(RangeError);
    expect(() => parseIsoDate('')).toThrow(RangeError);
    expect(() => addDays('2024-02-30', 1)).toThrow(RangeError);
    expect(() => startOfWeek('yesterday')).toThrow(RangeError);
  });

  it('adds days across month, year and leap-day boundaries', () => {
    expect(addDays('2025-01-31', 1)).toBe('2025-02-01');
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-02-29', 1)).toBe('2024-03-01');
    expect(addDays('2024-01-01', -1)).toBe('2023-12-31');
    expect(addDays('2025-03-01', -1)).toBe('2025-02-28');
    expect(daysBetween('2025-03-05', '2025-03-08')).toBe(3);
    expect(daysBetween('2025-03-08', '2025-03-05')).toBe(-3);
  });

  it('starts weeks on Sunday', () => {
    expect(startOfWeek('2025-03-02')).toBe('2025-03-02');
    expect(startOfWeek('2025-03-08')).toBe('2025-03-02');
    expect(startOfWeek('2025-03-09')).toBe('2025-03-09');
    expect(startOfWeek('2025-01-01')).toBe('2024-12-29');
  });

  it('formats short and long dates and weekday names', () => {
    expect(formatShortDate('2025-03-05')).toBe('Mar 05');
    expect(formatShortDate('2025-12-25')).toBe('Dec 25');
    expect(formatLongDate('2025-01-09')).toBe('Jan 09, 2025');
    expect(weekdayName('2025-03-05')).toBe('Wednesday');
    expect(weekdayName('2025-03-02')).toBe('Sunday');
    expect(weekdayName('2025-03-08')).toBe('Saturday');
  });

  it('takes the local calendar date, switching exactly at midnight', () => {
    expect(localIsoDate(new Date(2025, 2, 4, 23, 59, 59, 999))).toBe('2025-03-04');
    expect(localIsoDate(new Date(2025, 2, 5, 0, 0, 0, 0))).toBe('2025-03-05');
    expect(localIsoDate(new Date(2024, 11, 31, 23, 59))).toBe('2024-12-31');
  });
});

describe('deadlineLabel (spec §9)', () => {
  const today = '2025-03-05'; // Wednesday

  it('labels today and tomorrow', () => {
    expect(deadlineLabel('2025-03-05', today)).toEqual({ label: 'Today', isOverdue: false });
    expect(deadlineLabel('2025-03-06', today)).toEqual({ label: 'Tomorrow', isOverdue: false });
  });

  it('names the weekday for later days of the current week, up to Saturday', () => {
    expect(deadlineLabel('2025-03-07', today)).toEqual({ label: 'Friday', isOverdue: false });
    expect(deadlineLabel('2025-03-08', today)).toEqual({ label: 'Saturday', isOverdue: false });
  });

  it('uses the short date from next Sunday on (week boundary)', () => {
    expect(deadlineLabel('2025-03-09', today)).toEqual({ label: 'Mar 09', isOverdue: false });
    expect(deadlineLabel('2025-04-10', today)).toEqual({ label: 'Apr 10', isOverdue: false });
  });

  it('on a Saturday, Sunday is Tomorrow even though it starts the next week', () => {
    expect(deadlineLabel('2025-03-09', '2025-03-08')).toEqual({ label: 'Tomorrow', isOverdue: false });
    expect(deadlineLabel('2025-03-10', '2025-03-08')).toEqual({ label: 'Mar 10', isOverdue: false });
  });

  it('on a Sunday, the rest of the week is named', () => {
    expect(deadlineLabel('2025-03-04', '2025-03-02')).toEqual({ label: 'Tuesday', isOverdue: false });
    expect(deadlineLabel('2025-03-08', '2025-03-02')).toEqual({ label: 'Saturday', isOverdue: false });
  });

  it('labels any past day Overdue, even yesterday within the same week, but never today', () => {
    expect(deadlineLabel('2025-03-04', today)).toEqual({ label: 'Overdue', isOverdue: true });
    expect(deadlineLabel('2025-03-02', today)).toEqual({ label: 'Overdue', isOverdue: true });
    expect(deadlineLabel('2024-12-01', today)).toEqual({ label: 'Overdue', isOverdue: true });
    expect(isOverdue(today, today)).toBe(false);
    expect(isOverdue('2025-03-04', today)).toBe(true);
  });

  it('moves at midnight: tomorrow becomes today, today becomes overdue', () => {
    const beforeMidnight = localIsoDate(new Date(2025, 2, 5, 23, 59, 59));
    const atMidnight = localIsoDate(new Date(2025, 2, 6, 0, 0, 0));
    expect(deadlineLabel('2025-03-06', beforeMidnight).label).toBe('Tomorrow');
    expect(deadlineLabel('2025-03-06', atMidnight).label).toBe('Today');
    expect(deadlineLabel('2025-03-05', beforeMidnight).label).toBe('Today');
    expect(deadlineLabel('2025-03-05', atMidnight).label).toBe('Overdue');
  });

  it('works across a year boundary', () => {
    expect(deadlineLabel('2025-01-01', '2024-12-31')).toEqual({ label: 'Tomorrow', isOverdue: false });
    expect(deadlineLabel('2025-01-04', '2024-12-31')).toEqual({ label: 'Saturday', isOverdue: false });
    expect(deadlineLabel('2025-01-05', '2024-12-31')).toEqual({ label: 'Jan 05', isOverdue: false });
  });
});

describe('relativeTime (spec §9)', () => {
  const now = new Date(2025, 2, 5, 12, 0, 0);
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const SEC = 1000;
  const MIN = 60 * SEC;
  const HOUR = 60 * MIN;
  const DAY = 24 * HOUR;

  it("is 'Just now' under one minute, and for a moment in the future", () => {
    expect(relativeTime(now, now)).toBe('Just now');
    expect(relativeTime(ago(59 * SEC + 999), now)).toBe('Just now');
    expect(relativeTime(new Date(now.getTime() + 5 * MIN), now)).toBe('Just now');
  });

  it('counts whole minutes from one minute to under an hour', () => {
    expect(relativeTime(ago(MIN), now)).toBe('1 minute ago');
    expect(relativeTime(ago(2 * MIN - 1), now)).toBe('1 minute ago');
    expect(relativeTime(ago(2 * MIN), now)).toBe('2 minutes ago');
    expect(relativeTime(ago(HOUR - 1), now)).toBe('59 minutes ago');
  });

  it('counts whole hours from one hour to under 24', () => {
    expect(relativeTime(ago(HOUR), now)).toBe('1 hour ago');
    expect(relativeTime(ago(5 * HOUR + 59 * MIN), now)).toBe('5 hours ago');
    expect(relativeTime(ago(DAY - 1), now)).toBe('23 hours ago');
  });

  it('counts whole days from 24 hours to under 7 days', () => {
    expect(relativeTime(ago(DAY), now)).toBe('1 day ago');
    expect(relativeTime(ago(2 * DAY), now)).toBe('2 days ago');
    expect(relativeTime(ago(7 * DAY - 1), now)).toBe('6 days ago');
  });

  it('shows the date from 7 days on, with the year only when it differs', () => {
    expect(relativeTime(ago(7 * DAY), now)).toBe('Feb 26');
    expect(relativeTime(new Date(2025, 0, 9, 8, 0), now)).toBe('Jan 09');
    expect(relativeTime(new Date(2024, 10, 3, 8, 0), now)).toBe('Nov 03, 2024');
  });
});

describe('validateStartDate', () => {
  it('accepts no start, no due, or neither', () => {
    expect(validateStartDate(null, null)).toEqual({ ok: true, value: null });
    expect(validateStartDate(null, '2025-03-05')).toEqual({ ok: true, value: null });
    expect(validateStartDate('2025-03-05', null)).toEqual({ ok: true, value: '2025-03-05' });
  });

  it('accepts a start before the due date, and the same day', () => {
    expect(validateStartDate('2025-03-01', '2025-03-05')).toEqual({ ok: true, value: '2025-03-01' });
    expect(validateStartDate('2025-03-05', '2025-03-05')).toEqual({ ok: true, value: '2025-03-05' });
    expect(validateStartDate('2024-12-31', '2025-01-01')).toEqual({ ok: true, value: '2024-12-31' });
  });

  it('refuses a start after the due date, with the spec-style message on startDate', () => {
    expect(validateStartDate('2025-03-06', '2025-03-05')).toEqual({ ok: false, reason: 'start_after_due' });
    expect(validateStartDate('2026-01-01', '2025-12-31')).toEqual({ ok: false, reason: 'start_after_due' });
    expect(ERRORS.start_after_due.message).toBe('Start date must be on or before the due date');
    expect(errorStatus('start_after_due')).toBe(400);
    expect(errorBody('start_after_due', { startDate: ERRORS.start_after_due.message }).error.fields).toEqual({
      startDate: 'Start date must be on or before the due date',
    });
  });
});
