import { describe, expect, it } from 'vitest';
import type { StatusCategory } from './workflow';
import { parseTags } from './schemas/task';
import { dueRange, localDate, matchesDueFilter } from './task-filters';

// The calendar arithmetic (addDays, startOfWeek) is tested with the rest of dates.ts, in dates.test.ts.

describe('dueRange', () => {
  it('overdue is everything before today, completed tasks left out', () => {
    expect(dueRange('overdue', '2024-06-12')).toEqual({ from: null, to: '2024-06-11', excludeCompleted: true });
  });

  it('today is exactly today', () => {
    expect(dueRange('today', '2024-06-12')).toEqual({ from: '2024-06-12', to: '2024-06-12', excludeCompleted: false });
  });

  type Week = [from: string, to: string];
  it.each<[seenFrom: string, today: string, thisWeek: Week, nextWeek: Week]>([
    ['a Wednesday', '2024-06-12', ['2024-06-09', '2024-06-15'], ['2024-06-16', '2024-06-22']],
    ['a Saturday: Sunday is already next week', '2024-06-15', ['2024-06-09', '2024-06-15'], ['2024-06-16', '2024-06-22']],
    ['a Sunday: the week starts that day', '2024-06-16', ['2024-06-16', '2024-06-22'], ['2024-06-23', '2024-06-29']],
    ['New Year’s Eve: the weeks span the new year', '2024-12-31', ['2024-12-29', '2025-01-04'], ['2025-01-05', '2025-01-11']],
  ])('this week and next week run Sunday–Saturday, seen from %s', (_, today, [thisFrom, thisTo], [nextFrom, nextTo]) => {
    expect(dueRange('this_week', today)).toMatchObject({ from: thisFrom, to: thisTo });
    expect(dueRange('next_week', today)).toMatchObject({ from: nextFrom, to: nextTo });
  });
});

describe('matchesDueFilter around midnight', () => {
  const task = (dueDate: string | null, statusCategory: StatusCategory = 'unstarted') => ({ dueDate, statusCategory });

  it('a task due today is due today until 23:59:59 and overdue from 00:00 the next day', () => {
    const lastSecond = localDate(new Date(2024, 5, 12, 23, 59, 59, 999));
    const firstSecond = localDate(new Date(2024, 5, 13, 0, 0, 0, 0));
    expect(lastSecond).toBe('2024-06-12');
    expect(firstSecond).toBe('2024-06-13');
    expect(matchesDueFilter(task('2024-06-12'), 'today', lastSecond)).toBe(true);
    expect(matchesDueFilter(task('2024-06-12'), 'overdue', lastSecond)).toBe(false);
    expect(matchesDueFilter(task('2024-06-12'), 'today', firstSecond)).toBe(false);
    expect(matchesDueFilter(task('2024-06-12'), 'overdue', firstSecond)).toBe(true);
  });

  it('Saturday 23:59 → Sunday 00:00 moves a task from next week to this week', () => {
    const saturdayNight = localDate(new Date(2024, 5, 15, 23, 59));
    const sundayMorning = localDate(new Date(2024, 5, 16, 0, 0));
    const dueMonday = task('2024-06-17');
    expect(matchesDueFilter(dueMonday, 'next_week', saturdayNight)).toBe(true);
    expect(matchesDueFilter(dueMonday, 'this_week', saturdayNight)).toBe(false);
    expect(matchesDueFilter(dueMonday, 'this_week', sundayMorning)).toBe(true);
    expect(matchesDueFilter(dueMonday, 'next_week', sundayMorning)).toBe(false);
    // Last Saturday's task is in this week on Saturday night, and out of it at Sunday midnight.
    expect(matchesDueFilter(task('2024-06-15'), 'this_week', saturdayNight)).toBe(true);
    expect(matchesDueFilter(task('2024-06-15'), 'this_week', sundayMorning)).toBe(false);
  });

  it('completed, canceled or undated tasks are never overdue; undated tasks match no bucket', () => {
    expect(matchesDueFilter(task('2020-01-01', 'completed'), 'overdue', '2024-06-12')).toBe(false);
    expect(matchesDueFilter(task('2020-01-01', 'started'), 'overdue', '2024-06-12')).toBe(true);
    expect(matchesDueFilter(task('2020-01-01', 'canceled'), 'overdue', '2024-06-12')).toBe(false);
    expect(matchesDueFilter(task('2020-01-01', 'backlog'), 'overdue', '2024-06-12')).toBe(true);
    expect(matchesDueFilter(task('2024-06-12', 'completed'), 'today', '2024-06-12')).toBe(true);
    for (const f of ['overdue', 'today', 'this_week', 'next_week'] as const) {
      expect(matchesDueFilter(task(null), f, '2024-06-12')).toBe(false);
    }
  });
});

describe('parseTags', () => {
  it('splits on commas, trims and drops empty ones', () => {
    expect(parseTags(' frontend, bug ,,  ,urgent fix,')).toEqual(['frontend', 'bug', 'urgent fix']);
  });

  it('gives no tags for blank input', () => {
    expect(parseTags('')).toEqual([]);
    expect(parseTags(' , ,')).toEqual([]);
  });
});
