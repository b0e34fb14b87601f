import { describe, expect, it } from 'vitest';
import type { TimeAnalyticsDto } from '../../../domain/schemas/analytics';
import {
  estimateSummary,
  estimateTable,
  MAX_STACKED,
  OTHERS,
  stackedSeries,
  timeLoggedSummary,
  timeLoggedTable,
} from './time-analytics-data';

const ID = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

function dto(people: number): TimeAnalyticsDto {
  const series = Array.from({ length: people }, (_, i) => ({ id: ID(i), name: `Person ${i}` }));
  return {
    scope: {
      teamIds: [],
      projectId: null,
      from: '2025-03-03',
      to: '2025-03-16',
      timeZone: 'UTC',
      weeks: ['2025-03-03', '2025-03-10'],
    },
    logged: {
      totalMinutes: people * 90,
      byPerson: {
        series,
        weeks: [
          { week: '2025-03-03', minutes: series.map(() => 60) },
          { week: '2025-03-10', minutes: series.map(() => 30) },
        ],
      },
      byProject: { series: [], weeks: [] },
    },
    estimates: {
      count: 2,
      medianRatio: 1.25,
      overCount: 1,
      estimateMinutes: 180,
      actualMinutes: 210,
      tasks: [
        {
          taskId: ID(1),
          title: 'Ship it',
          projectId: ID(2),
          projectName: 'Launch',
          completedAt: '2025-03-05T15:00:00.000Z',
          estimateMinutes: 60,
          actualMinutes: 90,
          ratio: 1.5,
        },
      ],
    },
  };
}

describe('time logged', () => {
  it('stacks every series while there are few, and folds the rest into one', () => {
    expect(stackedSeries(dto(2).logged.byPerson, 'person')).toEqual({
      keys: [ID(0), ID(1)],
      names: ['Person 0', 'Person 1'],
      weeks: [
        { week: '2025-03-03', hours: [1, 1] },
        { week: '2025-03-10', hours: [0.5, 0.5] },
      ],
    });
    const many = stackedSeries(dto(MAX_STACKED + 2).logged.byPerson, 'person');
    expect(many.names).toHaveLength(MAX_STACKED);
    expect(many.names.at(-1)).toBe(OTHERS);
    expect(many.keys.at(-1)).toBe('rest');
    expect(many.weeks[0]!.hours.at(-1)).toBe(3); // three people's hour each
  });

  it('tables every series in hours with the week’s total, and says it in a sentence', () => {
    const table = timeLoggedTable(dto(2), 'person');
    expect(table.columns.map((c) => c.label)).toEqual(['Week starting', 'Person 0', 'Person 1', 'Total']);
    expect(table.rows).toEqual([
      ['2025-03-03', 1, 1, 2],
      ['2025-03-10', 0.5, 0.5, 1],
    ]);
    expect(timeLoggedSummary(dto(2), 'person')).toBe(
      'Time logged, stacked bar chart by person: 3h logged Mar 03 – Mar 16, 2025 (Person 0 1h 30m, Person 1 1h 30m).',
    );
  });
});

describe('estimate vs actual', () => {
  it('sums up and lists the tasks', () => {
    expect(estimateSummary(dto(0))).toBe(
      '2 tasks: 3h 30m logged against 3h estimated; median ratio 1.25× (actual ÷ estimate); 1 over estimate.',
    );
    expect(estimateTable(dto(0)).rows).toEqual([
      [{ text: 'Ship it', href: `/tasks/${ID(1)}` }, 'Launch', '2025-03-05', '1h', '1h 30m', '1.5×'],
    ]);
    const none = { ...dto(0), estimates: { ...dto(0).estimates, count: 0, tasks: [] } };
    expect(estimateSummary(none)).toMatch(/^No task completed/);
  });
});
