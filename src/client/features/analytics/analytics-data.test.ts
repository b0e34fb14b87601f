import { describe, expect, it } from 'vitest';
import { type AnalyticsDto, analyticsDto, cumulativeFlowDto } from '../../../domain/schemas/analytics';
import {
  ageingTable,
  burnupSummary,
  burnupTable,
  cellValue,
  csvFileName,
  cumulativeFlowSummary,
  cumulativeFlowTable,
  cycleTimeSummary,
  cycleTimeTable,
  distributionTable,
  formatHours,
  hoursToDays,
  isScopeEmpty,
  overdueSummary,
  overdueTable,
  rangeLabel,
  tableCsv,
  throughputSummary,
  throughputTable,
  wipSummary,
  wipTable,
  workloadSummary,
  workloadTable,
} from './analytics-data';

const TEAM = '11111111-1111-4111-8111-111111111111';
const PROJECT = '22222222-2222-4222-8222-222222222222';
const TASK = '33333333-3333-4333-8333-333333333333';
const ANNA = '44444444-4444-4444-8444-444444444444';
const WEEKS = ['2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23'];

/** Four weeks of a small team, checked against the API's own schema so the fixture cannot drift from it. */
const dto: AnalyticsDto = analyticsDto.parse({
  scope: { teamIds: [TEAM], projectId: null, from: '2026-11-02', to: '2026-11-25', timeZone: 'Europe/Berlin', weeks: WEEKS },
  throughput: [
    { week: WEEKS[0], completed: 0 },
    { week: WEEKS[1], completed: 2 },
    { week: WEEKS[2], completed: 5 },
    { week: WEEKS[3], completed: 3 },
  ],
  cycleTime: {
    weeks: [
      { week: WEEKS[0], count: 0, medianHours: null, p85Hours: null },
      { week: WEEKS[1], count: 2, medianHours: 20, p85Hours: 30 },
      { week: WEEKS[2], count: 5, medianHours: 52, p85Hours: 100.4 },
      { week: WEEKS[3], count: 3, medianHours: 0.5, p85Hours: 48 },
    ],
    distribution: [
      { label: '< 1 day', minHours: 0, maxHours: 24, count: 4 },
      { label: '1–2 days', minHours: 24, maxHours: 48, count: 3 },
      { label: '2+ days', minHours: 48, maxHours: null, count: 3 },
    ],
  },
  burnup: [
    {
      projectId: PROJECT,
      projectName: 'Launch, "Site"',
      points: WEEKS.map((week, i) => ({ week, scope: 10 + i, completed: [0, 2, 7, 10][i] })),
    },
  ],
  wip: [
    { kind: 'status', key: 'todo', name: 'To Do', color: '#64748b', count: 4 },
    { kind: 'status', key: 'design', name: 'Design', color: '#7c3aed', count: 2 },
    { kind: 'status', key: 'review', name: 'Review', color: '#f59e0b', count: 1 },
    { kind: 'status', key: 'qa', name: 'QA', color: '#0f766e', count: 0 },
  ],
  ageing: [
    {
      taskId: TASK,
      title: '=HYPERLINK("http://evil.example")',
      status: 'in_progress',
      statusName: 'In Progress',
      projectId: PROJECT,
      projectName: 'Launch, "Site"',
      since: '2026-11-01T09:30:00.000Z',
      days: 24,
    },
  ],
  workload: [
    { assigneeId: ANNA, name: 'Anna Ant', low: 1, medium: 2, high: 0, urgent: 1, total: 4 },
    { assigneeId: null, name: null, low: 2, medium: 0, high: 1, urgent: 0, total: 3 },
  ],
  overdue: [
    { week: WEEKS[0], count: 0 },
    { week: WEEKS[1], count: 1 },
    { week: WEEKS[2], count: 3 },
    { week: WEEKS[3], count: 2 },
  ],
});

describe('formatHours', () => {
  it.each([
    [null, null],
    [0, '1 min'],
    [0.5, '30 min'],
    [1, '1 h'],
    [5.4, '5 h'],
    [23.6, '1 d'],
    [24, '1 d'],
    [52, '2 d 4 h'],
    [100.4, '4 d 4 h'],
    [47.6, '2 d'],
  ])('%j hours read as %j', (hours, text) => {
    expect(formatHours(hours)).toBe(text);
  });

  it('gives days with one decimal for the axis', () => {
    expect(hoursToDays(36)).toBe(1.5);
    expect(hoursToDays(100.4)).toBe(4.2);
    expect(hoursToDays(null)).toBeNull();
  });
});

describe('the tables (each chart’s text alternative and its CSV)', () => {
  it('throughput: a row per week, the completed count', () => {
    const table = throughputTable(dto);
    expect(table.columns.map((c) => c.label)).toEqual(['Week starting', 'Completed']);
    expect(table.rows).toEqual([
      ['2026-11-02', 0],
      ['2026-11-09', 2],
      ['2026-11-16', 5],
      ['2026-11-23', 3],
    ]);
  });

  it('cycle time: the week’s count, median and 85th percentile in days and hours; none for a week without completions', () => {
    expect(cycleTimeTable(dto).rows).toEqual([
      ['2026-11-02', 0, null, null],
      ['2026-11-09', 2, '20 h', '1 d 6 h'],
      ['2026-11-16', 5, '2 d 4 h', '4 d 4 h'],
      ['2026-11-23', 3, '30 min', '2 d'],
    ]);
    expect(distributionTable(dto).rows).toEqual([
      ['< 1 day', 4],
      ['1–2 days', 3],
      ['2+ days', 3],
    ]);
  });

  it('burn-up: scope and completed at each week’s end, the caption naming the project', () => {
    const table = burnupTable(dto.burnup[0]!);
    expect(table.caption).toContain('Launch, "Site"');
    expect(table.rows.at(-1)).toEqual(['2026-11-23', 13, 10]);
  });

  it('work in progress: every open status by its own name, custom ones included', () => {
    const table = wipTable(dto);
    expect(table.caption).toBe('Open tasks per status now');
    expect(table.columns.map((c) => c.label)).toEqual(['Status', 'Tasks']);
    expect(table.rows).toEqual([
      ['To Do', 4],
      ['Design', 2],
      ['Review', 1],
      ['QA', 0],
    ]);
    expect(tableCsv(table)).toBe('Status,Tasks\r\nTo Do,4\r\nDesign,2\r\nReview,1\r\nQA,0\r\n');
  });

  it('work in progress across differing workflows: by category, said so in the table, the CSV and the summary', () => {
    const byCategory: AnalyticsDto = {
      ...dto,
      wip: [
        { kind: 'category', key: 'backlog', name: 'Backlog', color: '#94a3b8', count: 3 },
        { kind: 'category', key: 'unstarted', name: 'Not started', color: '#64748b', count: 5 },
        { kind: 'category', key: 'started', name: 'Started', color: '#0ea5e9', count: 2 },
      ],
    };
    const table = wipTable(byCategory);
    expect(table.caption).toBe('Open tasks per category now');
    expect(table.columns.map((c) => c.label)).toEqual(['Category', 'Tasks']);
    expect(table.rows).toEqual([
      ['Backlog', 3],
      ['Not started', 5],
      ['Started', 2],
    ]);
    expect(wipSummary(byCategory)).toBe(
      'Work in progress, bar chart of open tasks per category: Backlog 3, Not started 5, Started 2.',
    );
  });

  it('ageing: the task links to its page; the since date is a calendar date', () => {
    expect(ageingTable(dto).rows).toEqual([
      [{ text: '=HYPERLINK("http://evil.example")', href: `/tasks/${TASK}` }, 'Launch, "Site"', 'In Progress', '2026-11-01', 24],
    ]);
  });

  it('workload: the priorities in order and a total; the unassigned by name', () => {
    const table = workloadTable(dto);
    expect(table.columns.map((c) => c.label)).toEqual(['Assignee', 'Low', 'Medium', 'High', 'Urgent', 'Total']);
    expect(table.rows).toEqual([
      ['Anna Ant', 1, 2, 0, 1, 4],
      ['Unassigned', 2, 0, 1, 0, 3],
    ]);
  });

  it('overdue: a row per week', () => {
    expect(overdueTable(dto).rows.map((r) => r[1])).toEqual([0, 1, 3, 2]);
  });
});

describe('the CSV of a table', () => {
  it('has the table’s columns and rows, link text for links and nothing for none', () => {
    expect(tableCsv(throughputTable(dto))).toBe(
      'Week starting,Completed\r\n2026-11-02,0\r\n2026-11-09,2\r\n2026-11-16,5\r\n2026-11-23,3\r\n',
    );
    expect(tableCsv(cycleTimeTable(dto)).split('\r\n')[1]).toBe('2026-11-02,0,,');
    expect(cellValue({ text: 'Task', href: '/tasks/x' })).toBe('Task');
  });

  it('quotes and neutralises what the people typed (task titles, project names)', () => {
    expect(tableCsv(ageingTable(dto)).split('\r\n')[1]).toBe(
      '"\'=HYPERLINK(""http://evil.example"")","Launch, ""Site""",In Progress,2026-11-01,24',
    );
  });

  it('is named after the chart and the date, a burn-up after its project too', () => {
    expect(csvFileName('throughput', '2026-11-25')).toBe('crewboard-throughput-2026-11-25.csv');
    expect(csvFileName('burn-up', '2026-11-25', 'Launch, "Site"')).toBe('crewboard-burn-up-launch-site-2026-11-25.csv');
    expect(csvFileName('burn-up', '2026-11-25', '日本')).toBe('crewboard-burn-up-2026-11-25.csv');
  });
});

describe('summaries (each chart’s accessible name)', () => {
  it('say what the chart shows, its range and its most telling figure', () => {
    expect(throughputSummary(dto)).toBe(
      'Throughput, bar chart: 10 tasks completed Nov 02 – Nov 25, 2026; most in the week of Nov 16 (5).',
    );
    expect(cycleTimeSummary(dto)).toContain('in the week of Nov 23 the median was 30 min and the 85th percentile 2 d');
    expect(burnupSummary(dto.burnup[0]!)).toContain('10 of 13 completed');
    expect(wipSummary(dto)).toBe('Work in progress, bar chart of open tasks per status: To Do 4, Design 2, Review 1, QA 0.');
    expect(workloadSummary(dto)).toContain('most loaded: Anna Ant with 4');
    expect(overdueSummary(dto)).toContain('2 at the latest week’s end, most 3 in the week of Nov 16');
  });

  it('do not invent a peak when there is nothing', () => {
    const none = { ...dto, throughput: dto.throughput.map((t) => ({ ...t, completed: 0 })) };
    expect(throughputSummary(none)).toBe('Throughput, bar chart: 0 tasks completed Nov 02 – Nov 25, 2026.');
  });
});

describe('rangeLabel', () => {
  it('writes the year once within a year, twice across two', () => {
    expect(rangeLabel('2026-09-01', '2026-11-29')).toBe('Sep 01 – Nov 29, 2026');
    expect(rangeLabel('2025-12-01', '2026-02-28')).toBe('Dec 01, 2025 – Feb 28, 2026');
  });
});

describe('isScopeEmpty', () => {
  it('is false while any task exists in the scope', () => {
    expect(isScopeEmpty(dto)).toBe(false);
  });

  it('is true with nothing open, nothing completed and no project scope', () => {
    const empty: AnalyticsDto = {
      ...dto,
      throughput: dto.throughput.map((t) => ({ ...t, completed: 0 })),
      wip: dto.wip.map((w) => ({ ...w, count: 0 })),
      burnup: [],
      ageing: [],
      workload: [],
    };
    expect(isScopeEmpty(empty)).toBe(true);
    expect(
      isScopeEmpty({ ...empty, burnup: [{ ...dto.burnup[0]!, points: [{ week: WEEKS[0]!, scope: 1, completed: 1 }] }] }),
    ).toBe(false);
  });
});

describe('cumulative flow', () => {
  const flow = cumulativeFlowDto.parse({
    scope: { projectId: '00000000-0000-4000-8000-000000000001', from: '2026-11-23', to: '2026-11-25', timeZone: 'UTC' },
    statuses: [
      { key: 'todo', name: 'To Do', category: 'unstarted', color: '#64748b', deleted: false },
      { key: 'done', name: 'Done', category: 'completed', color: '#22c55e', deleted: false },
      { key: 'blocked', name: 'Blocked', category: 'started', color: '#dc2626', deleted: true },
    ],
    days: [
      { day: '2026-11-23', counts: [3, 0, 1] },
      { day: '2026-11-24', counts: [2, 1, 1] },
      { day: '2026-11-25', counts: [1, 3, 0] },
    ],
  });

  it('is a row per day and a column per status in workflow order, a deleted status marked so', () => {
    expect(tableCsv(cumulativeFlowTable(flow))).toBe(
      'Day,To Do,Done,Blocked (deleted)\r\n2026-11-23,3,0,1\r\n2026-11-24,2,1,1\r\n2026-11-25,1,3,0\r\n',
    );
    expect(csvFileName('cumulative-flow', '2026-11-25')).toBe('crewboard-cumulative-flow-2026-11-25.csv');
  });

  it('is summed up by the last day’s counts', () => {
    expect(cumulativeFlowSummary(flow)).toBe(
      'Cumulative flow, stacked area chart of tasks per status each day, Nov 23 – Nov 25, 2026; on Nov 25, 2026: To Do 1, Done 3, Blocked (deleted) 0.',
    );
  });
});

describe("'Split by' a Select field (issue 38)", () => {
  const HIGH = '55555555-5555-4555-8555-555555555555';
  const none = { count: 0, medianHours: null, p85Hours: null };
  const split = analyticsDto.parse({
    ...dto,
    split: {
      fieldId: '66666666-6666-4666-8666-666666666666',
      fieldName: 'Severity',
      series: [
        { optionId: HIGH, name: 'High', color: '#ea580c' },
        { optionId: null, name: 'No value', color: '#94a3b8' },
      ],
      throughput: WEEKS.map((week, i) => ({ week, counts: i === 1 ? [1, 1] : [0, 0] })),
      cycleTime: WEEKS.map((week, i) => ({
        week,
        series: i === 1 ? [{ count: 1, medianHours: 30, p85Hours: 30 }, none] : [none, none],
      })),
    },
  });

  it('gives the tables a column per series, and the summaries name them', () => {
    const table = throughputTable(split);
    expect(table.caption).toBe('Tasks completed per week by Severity');
    expect(table.columns.map((c) => c.label)).toEqual(['Week starting', 'High', 'No value', 'Total']);
    expect(table.rows[1]).toEqual([WEEKS[1], 1, 1, 2]);
    const cycle = cycleTimeTable(split);
    expect(cycle.columns.map((c) => c.label)).toEqual([
      'Week starting',
      'High: median',
      'High: completed',
      'No value: median',
      'No value: completed',
    ]);
    expect(cycle.rows[1]).toEqual([WEEKS[1], '1 d 6 h', 1, null, 0]);
    expect(throughputSummary(split)).toMatch(/stacked bar chart by Severity: .*\(High 1, No value 1\)/);
    expect(cycleTimeSummary(split)).toMatch(/for each Severity \(High, No value\)/);
    // Without a split, as before.
    expect(throughputTable(dto).columns.map((c) => c.label)).toEqual(['Week starting', 'Completed']);
  });
});
