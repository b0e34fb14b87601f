import { describe, expect, it } from 'vitest';
import { formatLongDate } from '../../../../../domain/dates';
import type { ActivityDto } from '../../../../../domain/schemas/task-detail';
import { actorName, describeActivity } from './activity-text';

type Entry = Pick<ActivityDto, 'field' | 'oldValue' | 'newValue' | 'oldLabel' | 'newLabel'>;
const entry = (
  field: Entry['field'],
  oldValue: string | null,
  newValue: string | null,
  oldLabel = null as string | null,
  newLabel = null as string | null,
): Entry => ({
  field,
  oldValue,
  newValue,
  oldLabel,
  newLabel,
});
const ID_A = '11111111-1111-4111-8111-111111111111';
const ID_B = '22222222-2222-4222-8222-222222222222';

describe('describeActivity', () => {
  it('says status and priority changes with their labels', () => {
    expect(describeActivity(entry('status', 'todo', 'in_progress'))).toBe('moved this from To Do to In Progress');
    expect(describeActivity(entry('priority', 'low', 'urgent'))).toBe('changed the priority from Low to Urgent');
  });

  it('names people and projects by the labels recorded at the time, never by id', () => {
    expect(describeActivity(entry('assignee', null, ID_A, null, 'Mia Member'))).toBe('assigned this to Mia Member');
    expect(describeActivity(entry('assignee', ID_A, null, 'Mia Member', null))).toBe('unassigned Mia Member');
    expect(describeActivity(entry('assignee', ID_A, ID_B, 'Mia', 'Olive'))).toBe('reassigned this from Mia to Olive');
    expect(describeActivity(entry('assignee', ID_A, ID_B, null, 'Olive'))).toBe('reassigned this from a former member to Olive');
    expect(describeActivity(entry('project', ID_A, ID_B, 'Apollo', 'Borealis'))).toBe(
      'moved this from project Apollo to Borealis',
    );
  });

  it('formats dates, tags, titles and descriptions', () => {
    expect(describeActivity(entry('due_date', null, '2031-03-07'))).toBe('set the due date to Mar 07, 2031');
    expect(describeActivity(entry('due_date', '2031-03-07', '2031-04-01'))).toBe(
      'changed the due date from Mar 07, 2031 to Apr 01, 2031',
    );
    expect(describeActivity(entry('due_date', '2031-03-07', null))).toBe('removed the due date (was Mar 07, 2031)');
    expect(describeActivity(entry('tags', null, 'a,b'))).toBe('tagged this a, b');
    expect(describeActivity(entry('tags', 'a', 'a,c'))).toBe('changed the tags to a, c');
    expect(describeActivity(entry('tags', 'a', null))).toBe('removed the tags');
    expect(describeActivity(entry('title', 'Old', 'New'))).toBe('renamed this from “Old” to “New”');
    expect(describeActivity(entry('description', null, null))).toBe('updated the description');
  });

  it('names a departed actor', () => {
    expect(actorName(null)).toBe('A former member');
    expect(actorName({ fullName: 'Alex' })).toBe('Alex');
  });

  it('says start dates and parents (issue 37), the parent by its title at the time', () => {
    expect(describeActivity(entry('start_date', null, '2026-12-01'))).toMatch(/^set the start date to /);
    expect(describeActivity(entry('parent', null, ID_A, null, 'Launch plan'))).toBe('made this a sub-task of “Launch plan”');
    expect(describeActivity(entry('parent', ID_A, null, 'Launch plan', null))).toBe(
      'made this a top-level task (was a sub-task of “Launch plan”)',
    );
    expect(describeActivity(entry('parent', ID_A, ID_B, null, 'Site'))).toBe(
      'moved this from under “a deleted task” to under “Site”',
    );
  });

  it('says dependencies added and removed (issue 37), a task the reader cannot see without its title', () => {
    expect(describeActivity(entry('blocked_by', null, ID_A, null, 'Write notes'))).toBe(
      'added a dependency: blocked by “Write notes”',
    );
    expect(describeActivity(entry('blocked_by', ID_A, null, 'Write notes', null))).toBe(
      'removed a dependency: no longer blocked by “Write notes”',
    );
    expect(describeActivity(entry('blocking', null, ID_B, null, 'Ship'))).toBe('added a dependency: blocking “Ship”');
    expect(describeActivity(entry('blocking', 'hidden', null))).toBe(
      'removed a dependency: no longer blocking A task in another project',
    );
    expect(describeActivity(entry('blocked_by', null, 'hidden'))).toBe(
      'added a dependency: blocked by A task in another project',
    );
  });

  it('tells a custom field change by the field name and the values as they read then (issue 38)', () => {
    const custom = (oldValue: string | null, newValue: string | null, oldLabel: string | null, newLabel: string | null) => ({
      ...entry('custom_field', oldValue, newValue, oldLabel, newLabel),
      fieldName: 'Severity',
    });
    expect(describeActivity(custom('"a"', '"b"', 'High', 'Critical'))).toBe('changed Severity from High to Critical');
    expect(describeActivity(custom(null, '"b"', null, 'Critical'))).toBe('set Severity to Critical');
    expect(describeActivity(custom('"a"', null, 'High', null))).toBe('cleared Severity (was High)');
    expect(describeActivity(custom('"a"', '"b"', null, 'Critical'))).toBe('changed Severity from a removed value to Critical');
    expect(describeActivity({ ...custom(null, '5', null, '5 pts'), fieldName: null })).toBe('set a deleted field to 5 pts');
  });

  it('tells an estimate and a time entry logged, changed or deleted (issue 39)', () => {
    expect(describeActivity(entry('estimate', null, '90m', null, '1h 30m'))).toBe('set the estimate to 1h 30m');
    expect(describeActivity(entry('estimate', '90m', '5pt', '1h 30m', '5 points'))).toBe(
      'changed the estimate from 1h 30m to 5 points',
    );
    expect(describeActivity(entry('estimate', '5pt', null, '5 points', null))).toBe('removed the estimate (was 5 points)');
    const day = formatLongDate('2026-11-02');
    expect(describeActivity(entry('time_entry', null, '90', null, '2026-11-02'))).toBe(`logged 1h 30m on ${day}`);
    expect(describeActivity(entry('time_entry', '90', '45', '2026-11-02', '2026-11-02'))).toBe(
      `changed time logged from 1h 30m on ${day} to 45m on ${day}`,
    );
    expect(describeActivity(entry('time_entry', '90', null, '2026-11-02', null))).toBe(`deleted time logged: 1h 30m on ${day}`);
  });
});
