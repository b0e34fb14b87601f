import { describe, expect, it } from 'vitest';
import {
  type ActivityCandidate,
  activityAction,
  completionRate,
  DASHBOARD_LIST_LIMIT,
  firstProjects,
  recentActivity,
  STAT_CARDS,
  trendDirection,
  trendLabel,
  upcomingDeadlines,
} from './dashboard';
import type { TaskStatus } from './constants';
import { DEFAULT_STATUSES } from './workflow';

describe('completionRate', () => {
  it('is 0 with no tasks', () => {
    expect(completionRate(0, 0)).toBe(0);
  });

  it('is the rounded percent of completed over total', () => {
    expect(completionRate(1, 3)).toBe(33); // 33.33
    expect(completionRate(2, 3)).toBe(67); // 66.67
    expect(completionRate(1, 8)).toBe(13); // 12.5 rounds up
    expect(completionRate(1, 200)).toBe(1); // 0.5 rounds up
    expect(completionRate(1, 201)).toBe(0); // 0.497
    expect(completionRate(0, 5)).toBe(0);
    expect(completionRate(5, 5)).toBe(100);
    expect(completionRate(199, 200)).toBe(100); // 99.5 rounds up
    expect(completionRate(397, 400)).toBe(99); // 99.25
  });
});

describe('activityAction (spec §4)', () => {
  it("is 'completed' for a task in a completed status and 'updated' for any other category", () => {
    expect(activityAction('task', 'completed')).toBe('completed');
    for (const category of ['backlog', 'unstarted', 'started', 'canceled'] as const) {
      expect(activityAction('task', category)).toBe('updated');
    }
  });

  it("is 'created' for projects and teams", () => {
    expect(activityAction('project')).toBe('created');
    expect(activityAction('team')).toBe('created');
  });
});

describe('recentActivity', () => {
  const at = (minute: number) => new Date(Date.UTC(2025, 2, 5, 12, minute));
  const task = (id: string, minute: number, status: TaskStatus): ActivityCandidate => ({
    id,
    entity: 'task',
    title: `Task ${id}`,
    category: DEFAULT_STATUSES.find((s) => s.key === status)!.category,
    at: at(minute),
  });

  it('is empty with nothing to show', () => {
    expect(recentActivity([])).toEqual([]);
  });

  it('keeps the five newest, newest first, mapping each action', () => {
    const items = recentActivity([
      task('a', 1, 'todo'),
      { id: 'p', entity: 'project', title: 'Project P', at: at(7) },
      task('b', 3, 'completed'),
      { id: 't', entity: 'team', title: 'Team T', at: at(2) },
      task('c', 6, 'review'),
      task('d', 5, 'completed'),
    ]);
    expect(items).toHaveLength(DASHBOARD_LIST_LIMIT);
    expect(items.map((i) => [i.id, i.action])).toEqual([
      ['project:p', 'created'],
      ['task:c', 'updated'],
      ['task:d', 'completed'],
      ['task:b', 'completed'],
      ['team:t', 'created'],
    ]);
    expect(items[0]).toEqual({
      id: 'project:p',
      entity: 'project',
      action: 'created',
      title: 'Project P',
      at: '2025-03-05T12:07:00.000Z',
    });
  });

  it('keeps ids unique when a task and a project share one', () => {
    const items = recentActivity([task('x', 1, 'todo'), { id: 'x', entity: 'project', title: 'X', at: at(2) }]);
    expect(new Set(items.map((i) => i.id)).size).toBe(2);
  });

  it('shows all of exactly five', () => {
    const five = [1, 2, 3, 4, 5].map((m) => task(String(m), m, 'todo'));
    expect(recentActivity(five)).toHaveLength(5);
    expect(recentActivity(five.slice(0, 4))).toHaveLength(4);
  });
});

describe('upcomingDeadlines', () => {
  const today = '2025-03-05';
  const t = (id: string, dueDate: string | null, status: TaskStatus = 'todo') => ({
    id,
    title: id,
    dueDate,
    status,
    statusCategory: DEFAULT_STATUSES.find((s) => s.key === status)!.category,
    priority: 'medium' as const,
    projectId: 'p',
    projectName: 'P',
  });

  it('leaves out completed tasks and tasks without a due date', () => {
    const out = upcomingDeadlines([t('done', '2025-03-06', 'completed'), t('none', null), t('ok', '2025-03-07')], today);
    expect(out.map((d) => d.id)).toEqual(['ok']);
  });

  it('sorts soonest first, includes overdue ones flagged, and keeps at most five', () => {
    const out = upcomingDeadlines(
      [
        t('later', '2025-04-01'),
        t('tomorrow', '2025-03-06', 'in_progress'),
        t('overdue', '2025-03-01', 'review'),
        t('today', '2025-03-05'),
        t('next-week', '2025-03-10'),
        t('much-later', '2025-05-01'),
      ],
      today,
    );
    expect(out.map((d) => [d.id, d.isOverdue])).toEqual([
      ['overdue', true],
      ['today', false],
      ['tomorrow', false],
      ['next-week', false],
      ['later', false],
    ]);
  });

  it('keeps the given order between equal due dates', () => {
    const out = upcomingDeadlines([t('first', '2025-03-06'), t('second', '2025-03-06')], today);
    expect(out.map((d) => d.id)).toEqual(['first', 'second']);
  });
});

describe('firstProjects and stat cards', () => {
  it('keeps the first five in the given order', () => {
    expect(firstProjects([1, 2, 3, 4, 5, 6, 7])).toEqual([1, 2, 3, 4, 5]);
    expect(firstProjects([3, 1])).toEqual([3, 1]);
  });

  it('has the four cards, the first three with their month-over-month trend', () => {
    expect(STAT_CARDS.map((c) => c.label)).toEqual(['Completed Tasks', 'Active Projects', 'Team Members', 'Tasks in Progress']);
    expect(STAT_CARDS.map((c) => c.trend)).toEqual(['completedTasks', 'activeProjects', 'teamMembers', undefined]);
  });
});

describe('trendLabel (issue 24)', () => {
  const label = (previous: number, current: number) => trendLabel({ current, previous });

  it("says 'No change' with nothing in either month, and 'New this month' with nothing last month", () => {
    expect(label(0, 0)).toBe('No change');
    expect(label(0, 1)).toBe('New this month');
    expect(label(0, 250)).toBe('New this month');
  });

  it('gives the change in whole percent of last month, with a plus or a true minus sign', () => {
    expect(label(10, 12)).toBe('+20% vs last month');
    expect(label(4, 1)).toBe('\u221275% vs last month');
    expect(label(3, 1)).toBe('\u221267% vs last month'); // −66.67
    expect(label(3, 4)).toBe('+33% vs last month'); // 33.33
    expect(label(1, 3)).toBe('+200% vs last month');
    expect(label(5, 0)).toBe('\u2212100% vs last month');
    expect(label(4, 1)).not.toContain('-'); // U+2212, not a hyphen
  });

  it('rounds halves away from zero, alike both ways', () => {
    expect(label(40, 41)).toBe('+3% vs last month'); // +2.5
    expect(label(40, 39)).toBe('\u22123% vs last month'); // −2.5
    expect(label(200, 201)).toBe('+1% vs last month'); // +0.5
    expect(label(200, 199)).toBe('\u22121% vs last month'); // −0.5
  });

  it("says 'No change' when the figures are equal or the change rounds to 0", () => {
    expect(label(7, 7)).toBe('No change');
    expect(label(201, 202)).toBe('No change'); // +0.498
    expect(label(201, 200)).toBe('No change'); // −0.498
  });
});

describe('trendDirection', () => {
  it('is up for growth and new figures, down for a fall, flat when the label says No change', () => {
    expect(trendDirection({ current: 3, previous: 2 })).toBe('up');
    expect(trendDirection({ current: 1, previous: 0 })).toBe('up');
    expect(trendDirection({ current: 1, previous: 2 })).toBe('down');
    expect(trendDirection({ current: 0, previous: 0 })).toBe('flat');
    expect(trendDirection({ current: 1000, previous: 1001 })).toBe('flat');
  });
});
