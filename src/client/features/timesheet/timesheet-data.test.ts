import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../../domain/durations';
import type { TimeEntryDto } from '../../../domain/schemas/time';
import { buildGrid, cellEdit, csvFileName, timesheetCsv, weekDays, weekStart, weekTitle } from './timesheet-data';

const TASK_A = { id: 'a', title: 'Write the report', projectId: 'p1', projectName: 'Beta', teamId: 't1' };
const TASK_B = { id: 'b', title: 'Call, "the" client', projectId: 'p2', projectName: 'Alpha', teamId: 't1' };

let n = 0;
function entry(task: typeof TASK_A, date: string, minutes: number, note: string | null = null): TimeEntryDto {
  n++;
  return {
    id: `e${n}`,
    taskId: task.id,
    userId: 'u1',
    userName: 'Olive Owner',
    date,
    minutes,
    note,
    task,
    createdAt: `2025-03-0${Math.min(9, n)}T10:00:00.000Z`,
    updatedAt: '2025-03-03T10:00:00.000Z',
  };
}

const LIMITS = { max: 1440, invalid: 'bad', tooLong: 'too long' };

describe('the week shown', () => {
  it('runs Monday to Sunday, this week by default or for a bad date', () => {
    expect(weekStart(null, '2025-03-05')).toBe('2025-03-03');
    expect(weekStart('2025-03-09', '2025-06-01')).toBe('2025-03-03'); // a Sunday: its Monday
    expect(weekStart('2025-02-30', '2025-03-05')).toBe('2025-03-03');
    expect(weekStart('yesterday', '2025-03-05')).toBe('2025-03-03');
    expect(weekDays('2025-03-03')).toEqual([
      '2025-03-03',
      '2025-03-04',
      '2025-03-05',
      '2025-03-06',
      '2025-03-07',
      '2025-03-08',
      '2025-03-09',
    ]);
    expect(weekTitle('2024-12-30')).toBe('Dec 30 – Jan 05, 2025');
  });
});

describe('the grid', () => {
  it('has a row per task (by project, then title), totals per day, per task and for the week', () => {
    const grid = buildGrid(
      [
        entry(TASK_A, '2025-03-03', 90),
        entry(TASK_A, '2025-03-03', 30),
        entry(TASK_A, '2025-03-09', 15),
        entry(TASK_B, '2025-03-04', 60),
        entry(TASK_B, '2025-03-10', 999), // the next Monday: not this week
      ],
      '2025-03-03',
    );
    expect(grid.rows.map((r) => [r.title, r.total])).toEqual([
      ['Call, "the" client', 60],
      ['Write the report', 135],
    ]);
    expect(grid.rows[1]!.cells.map((c) => c.length)).toEqual([2, 0, 0, 0, 0, 0, 1]);
    expect(grid.dayTotals).toEqual([120, 60, 0, 0, 0, 0, 15]);
    expect(grid.total).toBe(195);
    expect(buildGrid([], '2025-03-03')).toEqual({ rows: [], dayTotals: [0, 0, 0, 0, 0, 0, 0], total: 0 });
  });
});

describe('typing in a cell', () => {
  const one = [entry(TASK_A, '2025-03-03', 90)];
  it('creates, changes, deletes or leaves alone', () => {
    expect(cellEdit([], '1h 30m', parseDuration, LIMITS)).toEqual({ kind: 'create', minutes: 90 });
    expect(cellEdit([], '  ', parseDuration, LIMITS)).toEqual({ kind: 'none' });
    expect(cellEdit(one, '1.5h', parseDuration, LIMITS)).toEqual({ kind: 'none' });
    expect(cellEdit(one, '45m', parseDuration, LIMITS)).toEqual({ kind: 'update', entryId: one[0]!.id, minutes: 45 });
    expect(cellEdit(one, '', parseDuration, LIMITS)).toEqual({ kind: 'delete', entryId: one[0]!.id });
  });
  it('refuses what is not a duration, or more than a day', () => {
    expect(cellEdit(one, 'soon', parseDuration, LIMITS)).toEqual({ kind: 'invalid', message: 'bad' });
    expect(cellEdit([], '0m', parseDuration, LIMITS)).toEqual({ kind: 'invalid', message: 'bad' });
    expect(cellEdit([], '25h', parseDuration, LIMITS)).toEqual({ kind: 'invalid', message: 'too long' });
  });
  it('leaves a day of several entries to the task page', () => {
    expect(cellEdit([...one, entry(TASK_A, '2025-03-03', 10)], '', parseDuration, LIMITS)).toEqual({ kind: 'none' });
  });
});

describe('the CSV', () => {
  it('has the columns, one record per entry by date, RFC 4180 quoting and formula guards', () => {
    const csv = timesheetCsv(
      [entry(TASK_A, '2025-03-04', 90, '=HYPERLINK("x")'), entry(TASK_B, '2025-03-03', 45, 'line 1\nline 2')],
      (id) => (id === 't1' ? 'Team One' : ''),
    );
    expect(csv).toBe(
      'date,person,team,project,task,minutes,hours,note\r\n' +
        '2025-03-03,Olive Owner,Team One,Alpha,"Call, ""the"" client",45,0.75,"line 1\nline 2"\r\n' +
        `2025-03-04,Olive Owner,Team One,Beta,Write the report,90,1.5,"'=HYPERLINK(""x"")"\r\n`,
    );
    expect(csvFileName('Olive Owner', '2025-03-03')).toBe('timesheet-olive-owner-2025-03-03.csv');
  });
});
