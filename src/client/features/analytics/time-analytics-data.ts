/**
 * The Analytics page's time charts (issue 39): 'Time logged' per week by person or project, and 'Estimate vs actual'.
 * Their tables (the charts' text alternative and CSV) and one-sentence summaries, pure.
 */
import { formatDuration } from '../../../domain/durations';
import type { TimeAnalyticsDto, TimeSplit } from '../../../domain/schemas/analytics';
import { type DataTable, rangeLabel } from './analytics-data';
import { CHARTS } from './analytics-text';

export const TIME_SPLITS = ['person', 'project'] as const;
export type TimeSplitBy = (typeof TIME_SPLITS)[number];
export const TIME_SPLIT_LABELS: Record<TimeSplitBy, string> = { person: 'Person', project: 'Project' };
/** Not the page's 'Split by' (a Select field, for the task charts): this one splits the time chart alone. */
export const TIME_SPLIT_LABEL = 'Split time by';

/** The chart stacks this many series at most; the rest are summed under OTHERS (the table keeps every one). */
export const MAX_STACKED = 6;
export const OTHERS = 'Everyone else';
const OTHER_PROJECTS = 'Other projects';

/** Hours with one decimal, the chart's unit (90 min → 1.5); the table's have two (45 min → 0.75). */
export const hours = (minutes: number): number => Math.round((minutes / 60) * 10) / 10;
const tableHours = (minutes: number): number => Math.round((minutes / 60) * 100) / 100;

export const splitOf = (dto: TimeAnalyticsDto, by: TimeSplitBy): TimeSplit =>
  by === 'person' ? dto.logged.byPerson : dto.logged.byProject;

/**
 * The stacked chart's series and rows: the first MAX_STACKED − 1 series as they are and the others summed into one
 * when there are more than MAX_STACKED; each week's values in hours.
 */
export function stackedSeries(
  split: TimeSplit,
  by: TimeSplitBy,
): { keys: string[]; names: string[]; weeks: { week: string; hours: number[] }[] } {
  const folded = split.series.length > MAX_STACKED;
  const kept = folded ? MAX_STACKED - 1 : split.series.length;
  const names = split.series.slice(0, kept).map((s) => s.name);
  // A series' key for React: its id ('none' for the unnamed members), 'rest' for the folded ones.
  const keys = split.series.slice(0, kept).map((s) => s.id ?? 'none');
  if (folded) {
    names.push(by === 'person' ? OTHERS : OTHER_PROJECTS);
    keys.push('rest');
  }
  return {
    keys,
    names,
    weeks: split.weeks.map((w) => {
      const values = w.minutes.slice(0, kept);
      if (folded) values.push(w.minutes.slice(kept).reduce((n, m) => n + m, 0));
      return { week: w.week, hours: values.map(hours) };
    }),
  };
}

/** Per week: a column per person or project (hours), then the week's total. */
export function timeLoggedTable(dto: TimeAnalyticsDto, by: TimeSplitBy): DataTable {
  const split = splitOf(dto, by);
  return {
    caption: `Hours logged per week by ${TIME_SPLIT_LABELS[by].toLowerCase()}`,
    columns: [
      { label: 'Week starting' },
      ...split.series.map((s) => ({ label: s.name, numeric: true })),
      { label: 'Total', numeric: true },
    ],
    rows: split.weeks.map((w) => [w.week, ...w.minutes.map(tableHours), tableHours(w.minutes.reduce((n, m) => n + m, 0))]),
  };
}

export function timeLoggedSummary(dto: TimeAnalyticsDto, by: TimeSplitBy): string {
  const split = splitOf(dto, by);
  const range = rangeLabel(dto.scope.from, dto.scope.to);
  const totals = split.series.map(
    (s, i) => `${s.name} ${formatDuration(split.weeks.reduce((n, w) => n + (w.minutes[i] ?? 0), 0))}`,
  );
  const per = totals.length ? ` (${totals.join(', ')})` : '';
  return `${CHARTS['time-logged'].title}, stacked bar chart by ${TIME_SPLIT_LABELS[by].toLowerCase()}: ${formatDuration(dto.logged.totalMinutes)} logged ${range}${per}.`;
}

/** '1.5×' */
export const ratioText = (ratio: number): string => `${ratio.toFixed(2).replace(/\.?0+$/, '')}×`;

/** The summary line above the table: how many tasks, the median ratio, how many ran over. */
export function estimateSummary(dto: TimeAnalyticsDto): string {
  const e = dto.estimates;
  if (e.count === 0) return 'No task completed in this period had both an estimate in hours and time logged.';
  const tasks = e.count === 1 ? '1 task' : `${e.count} tasks`;
  return `${tasks}: ${formatDuration(e.actualMinutes)} logged against ${formatDuration(e.estimateMinutes)} estimated; median ratio ${ratioText(e.medianRatio ?? 0)} (actual ÷ estimate); ${e.overCount} over estimate.`;
}

/** The latest completed first: task (a link), project, completion day, estimate, actual, ratio. */
export function estimateTable(dto: TimeAnalyticsDto): DataTable {
  return {
    caption: 'Estimate vs actual of completed tasks',
    columns: [
      { label: 'Task', wrap: true },
      { label: 'Project' },
      { label: 'Completed' },
      { label: 'Estimate' },
      { label: 'Actual' },
      { label: 'Actual ÷ estimate', numeric: true },
    ],
    rows: dto.estimates.tasks.map((t) => [
      { text: t.title, href: `/tasks/${t.taskId}` },
      t.projectName,
      t.completedAt.slice(0, 10),
      formatDuration(t.estimateMinutes),
      formatDuration(t.actualMinutes),
      ratioText(t.ratio),
    ]),
  };
}
