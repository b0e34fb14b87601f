import { describe, expect, it } from 'vitest';
import type { TaskPriority } from './constants';
import { DEFAULT_STATUSES, type StatusCategory } from './workflow';
import { endOfIsoWeek, groupMyWork, MY_WORK_GROUPS, myWorkGroup, parseMyWorkSort, sortMyWork, startOfIsoWeek } from './my-work';

// 2025-03-05 is a Wednesday; its ISO week runs Monday 03-03 to Sunday 03-09.
const WEDNESDAY = '2025-03-05';

describe('ISO weeks', () => {
  it('start on Monday and end on Sunday', () => {
    expect(startOfIsoWeek(WEDNESDAY)).toBe('2025-03-03');
    expect(endOfIsoWeek(WEDNESDAY)).toBe('2025-03-09');
    expect(startOfIsoWeek('2025-03-03')).toBe('2025-03-03');
    expect(startOfIsoWeek('2025-03-09')).toBe('2025-03-03');
    expect(endOfIsoWeek('2025-03-09')).toBe('2025-03-09');
  });

  it('cross months and years', () => {
    expect(startOfIsoWeek('2025-01-01')).toBe('2024-12-30');
    expect(endOfIsoWeek('2024-12-30')).toBe('2025-01-05');
  });
});

describe('myWorkGroup', () => {
  it('puts each due date in its group on a Wednesday', () => {
    expect(myWorkGroup(null, WEDNESDAY)).toBe('no_date');
    expect(myWorkGroup('2025-03-04', WEDNESDAY)).toBe('overdue');
    expect(myWorkGroup('2024-12-31', WEDNESDAY)).toBe('overdue');
    expect(myWorkGroup(WEDNESDAY, WEDNESDAY)).toBe('today');
    expect(myWorkGroup('2025-03-06', WEDNESDAY)).toBe('this_week');
    // The week's last day (Sunday) is still this week; the next Monday is later.
    expect(myWorkGroup('2025-03-09', WEDNESDAY)).toBe('this_week');
    expect(myWorkGroup('2025-03-10', WEDNESDAY)).toBe('later');
    expect(myWorkGroup('2026-01-01', WEDNESDAY)).toBe('later');
  });

  it('on a Sunday, leaves nothing for this week: tomorrow is next week', () => {
    const sunday = '2025-03-09';
    expect(myWorkGroup('2025-03-08', sunday)).toBe('overdue');
    expect(myWorkGroup(sunday, sunday)).toBe('today');
    expect(myWorkGroup('2025-03-10', sunday)).toBe('later');
  });

  it('on a Monday, counts the whole week to Sunday as this week', () => {
    const monday = '2025-03-03';
    expect(myWorkGroup('2025-03-02', monday)).toBe('overdue');
    expect(myWorkGroup('2025-03-04', monday)).toBe('this_week');
    expect(myWorkGroup('2025-03-09', monday)).toBe('this_week');
    expect(myWorkGroup('2025-03-10', monday)).toBe('later');
  });
});

interface T {
  id: string;
  status: string;
  statusCategory: StatusCategory;
  dueDate: string | null;
  priority: TaskPriority;
  projectName: string;
  createdAt: string;
}
const task = (id: string, over: Partial<T> = {}): T => ({
  id,
  status: 'todo',
  statusCategory: DEFAULT_STATUSES.find((s) => s.key === (over.status ?? 'todo'))?.category ?? 'unstarted',
  dueDate: null,
  priority: 'medium',
  projectName: 'Alpha',
  createdAt: '2025-01-01T00:00:00.000Z',
  ...over,
});

describe('groupMyWork', () => {
  it('groups open tasks, keeps their order, and leaves completed ones out', () => {
    const tasks = [
      task('late', { dueDate: '2025-03-01' }),
      task('done-late', { dueDate: '2025-03-01', status: 'completed' }),
      task('now', { dueDate: WEDNESDAY, status: 'in_progress' }),
      task('friday', { dueDate: '2025-03-07', status: 'review' }),
      task('sunday', { dueDate: '2025-03-09' }),
      task('next', { dueDate: '2025-03-10' }),
      task('someday'),
      task('done-someday', { status: 'completed' }),
      task('late2', { dueDate: '2025-02-01' }),
    ];
    const groups = groupMyWork(tasks, WEDNESDAY);
    expect(Object.keys(groups)).toEqual([...MY_WORK_GROUPS]);
    const ids = (g: T[]) => g.map((t) => t.id);
    expect(ids(groups.overdue)).toEqual(['late', 'late2']);
    expect(ids(groups.today)).toEqual(['now']);
    expect(ids(groups.this_week)).toEqual(['friday', 'sunday']);
    expect(ids(groups.later)).toEqual(['next']);
    expect(ids(groups.no_date)).toEqual(['someday']);
  });

  it("reads the status's category: another project's Done and Won't do are left out, its Design kept", () => {
    const tasks = [
      task('done', { status: 'done', statusCategory: 'completed' }),
      task('dropped', { status: 'won_t_do', statusCategory: 'canceled' }),
      task('design', { status: 'design', statusCategory: 'started' }),
      task('backlog', { status: 'backlog', statusCategory: 'backlog' }),
    ];
    expect(groupMyWork(tasks, WEDNESDAY).no_date.map((t) => t.id)).toEqual(['design', 'backlog']);
  });

  it('has every group, empty, for no tasks', () => {
    expect(groupMyWork([], WEDNESDAY)).toEqual({ overdue: [], today: [], this_week: [], later: [], no_date: [] });
  });
});

describe('sortMyWork', () => {
  const tasks = [
    task('a', { dueDate: '2025-03-10', priority: 'low', projectName: 'beta', createdAt: '2025-01-03T00:00:00.000Z' }),
    task('b', { dueDate: null, priority: 'urgent', projectName: 'Alpha', createdAt: '2025-01-05T00:00:00.000Z' }),
    task('c', { dueDate: '2025-03-06', priority: 'high', projectName: 'Gamma', createdAt: '2025-01-01T00:00:00.000Z' }),
    task('d', { dueDate: '2025-03-06', priority: 'urgent', projectName: 'alpha', createdAt: '2025-01-02T00:00:00.000Z' }),
  ];
  const ids = (sorted: T[]) => sorted.map((t) => t.id).join('');

  it('by due date: earliest first, no date last, ties by priority', () => {
    expect(ids(sortMyWork(tasks, 'due'))).toBe('dcab');
  });
  it('by priority: urgent first, ties by due date (no date last)', () => {
    expect(ids(sortMyWork(tasks, 'priority'))).toBe('dbca');
  });
  it('by project: name without case, ties by due date', () => {
    expect(ids(sortMyWork(tasks, 'project'))).toBe('dbac');
  });
  it('by recently created: newest first', () => {
    expect(ids(sortMyWork(tasks, 'created'))).toBe('badc');
  });
  it('returns a copy', () => {
    const copy = sortMyWork(tasks, 'created');
    expect(copy).not.toBe(tasks);
    expect(ids(tasks)).toBe('abcd');
  });
});

describe('parseMyWorkSort', () => {
  it('accepts the four sorts and falls back to due date', () => {
    expect(parseMyWorkSort('priority')).toBe('priority');
    expect(parseMyWorkSort('created')).toBe('created');
    expect(parseMyWorkSort('title')).toBe('due');
    expect(parseMyWorkSort(null)).toBe('due');
    expect(parseMyWorkSort(undefined)).toBe('due');
  });
});
