import { TASK_PRIORITIES, TASK_PRIORITY_LABELS } from '../../../domain/constants';
import { type CsvCell, fileSlug, toCsv } from '../../../domain/csv';
import { formatLongDate, formatShortDate } from '../../../domain/dates';
import type { AnalyticsDto, CumulativeFlowDto } from '../../../domain/schemas/analytics';
import { CHARTS, type ChartId, TEXT } from './analytics-text';

/**
 * What each chart shows as a table: the same rows and columns as its CSV download, so the table (the
 * chart's text alternative) and the file never disagree. Pure, so both are tested without a browser.
 */

/** A table cell: text or a number, nothing (shown as a dash, empty in the CSV), or a link. */
export type Cell = string | number | null | { text: string; href: string };

export interface DataColumn {
  label: string;
  /** Right-aligned. */
  numeric?: boolean;
  /** Long text that wraps (a task's title) instead of widening the table. */
  wrap?: boolean;
}

export interface DataTable {
  caption: string;
  columns: DataColumn[];
  /** The first cell of each row is its header (th scope=row). */
  rows: Cell[][];
}

export type BurnupProject = AnalyticsDto['burnup'][number];
export type WorkloadRow = AnalyticsDto['workload'][number];

const HOURS_PER_DAY = 24;

/** Hours as a person reads them: '45 min', '5 h', '2 d 4 h', '3 d'. */
export function formatHours(hours: number | null): string | null {
  if (hours === null || !Number.isFinite(hours)) return null;
  if (hours < 1) return `${Math.max(1, Math.round(hours * 60))} min`;
  const rounded = Math.round(hours);
  if (rounded < HOURS_PER_DAY) return `${rounded} h`;
  const days = Math.floor(rounded / HOURS_PER_DAY);
  const rest = rounded - days * HOURS_PER_DAY;
  return rest === 0 ? `${days} d` : `${days} d ${rest} h`;
}

/** Hours as days with one decimal, the unit of the cycle-time axis. */
export const hoursToDays = (hours: number | null): number | null =>
  hours === null ? null : Math.round((hours / HOURS_PER_DAY) * 10) / 10;

/** A week on an axis or in a summary: its Monday as 'Nov 23'. */
export const weekTick = (week: string): string => formatShortDate(week);

/** 'Sep 01 – Nov 29, 2026' (the year once when both ends share it). */
export function rangeLabel(from: string, to: string): string {
  return from.slice(0, 4) === to.slice(0, 4)
    ? `${formatShortDate(from)} – ${formatLongDate(to)}`
    : `${formatLongDate(from)} – ${formatLongDate(to)}`;
}

export const priorityLabel = (p: (typeof TASK_PRIORITIES)[number]) => TASK_PRIORITY_LABELS[p];
export const assigneeName = (row: Pick<WorkloadRow, 'assigneeId' | 'name'>): string =>
  row.assigneeId === null ? TEXT.unassigned : (row.name ?? TEXT.unassigned);

const WEEK = 'Week starting';

export function throughputTable(dto: AnalyticsDto): DataTable {
  const split = dto.split;
  if (split) {
    // Split by a Select field (issue 38): a column per option (and 'No value'), then the week's total.
    return {
      caption: `Tasks completed per week by ${split.fieldName}`,
      columns: [
        { label: WEEK },
        ...split.series.map((s) => ({ label: s.name, numeric: true })),
        { label: 'Total', numeric: true },
      ],
      rows: split.throughput.map((w) => [w.week, ...w.counts, w.counts.reduce((a, b) => a + b, 0)]),
    };
  }
  return {
    caption: 'Tasks completed per week',
    columns: [{ label: WEEK }, { label: 'Completed', numeric: true }],
    rows: dto.throughput.map((p) => [p.week, p.completed]),
  };
}

export function cycleTimeTable(dto: AnalyticsDto): DataTable {
  const split = dto.split;
  if (split) {
    // Split by a Select field (issue 38): the median per option (and 'No value'), each with its completions.
    return {
      caption: `Median cycle time per week of completion by ${split.fieldName}`,
      columns: [
        { label: WEEK },
        ...split.series.flatMap((s) => [
          { label: `${s.name}: median`, numeric: true },
          { label: `${s.name}: completed`, numeric: true },
        ]),
      ],
      rows: split.cycleTime.map((w) => [w.week, ...w.series.flatMap((c) => [formatHours(c.medianHours), c.count])]),
    };
  }
  return {
    caption: 'Cycle time per week of completion',
    columns: [
      { label: WEEK },
      { label: 'Completed', numeric: true },
      { label: 'Median', numeric: true },
      { label: '85th percentile', numeric: true },
    ],
    rows: dto.cycleTime.weeks.map((w) => [w.week, w.count, formatHours(w.medianHours), formatHours(w.p85Hours)]),
  };
}

export function distributionTable(dto: AnalyticsDto): DataTable {
  return {
    caption: 'Tasks completed in the period by cycle time',
    columns: [{ label: 'Cycle time' }, { label: 'Tasks', numeric: true }],
    rows: dto.cycleTime.distribution.map((b) => [b.label, b.count]),
  };
}

export function burnupTable(project: BurnupProject): DataTable {
  return {
    caption: `Burn-up of ${project.projectName}: scope and completed tasks at each week’s end`,
    columns: [{ label: WEEK }, { label: 'Scope', numeric: true }, { label: 'Completed', numeric: true }],
    rows: project.points.map((p) => [p.week, p.scope, p.completed]),
  };
}

/** What the work-in-progress bars stand for: statuses, or (projects whose workflows differ) categories. */
const wipUnit = (dto: AnalyticsDto): 'status' | 'category' => (dto.wip[0]?.kind === 'category' ? 'category' : 'status');

export function wipTable(dto: AnalyticsDto): DataTable {
  return {
    caption: `Open tasks per ${wipUnit(dto)} now`,
    columns: [{ label: wipUnit(dto) === 'category' ? 'Category' : 'Status' }, { label: 'Tasks', numeric: true }],
    rows: dto.wip.map((w) => [w.name, w.count]),
  };
}

export function ageingTable(dto: AnalyticsDto): DataTable {
  return {
    caption: 'Open tasks longest in their status, oldest first',
    columns: [
      { label: 'Task', wrap: true },
      { label: 'Project', wrap: true },
      { label: 'Status' },
      { label: 'In status since' },
      { label: 'Days in status', numeric: true },
    ],
    rows: dto.ageing.map((a) => [
      { text: a.title, href: `/tasks/${a.taskId}` },
      a.projectName,
      a.statusName,
      a.since.slice(0, 10),
      a.days,
    ]),
  };
}

export function workloadTable(dto: AnalyticsDto): DataTable {
  return {
    caption: 'Open tasks per assignee by priority',
    columns: [
      { label: 'Assignee' },
      ...TASK_PRIORITIES.map((p) => ({ label: priorityLabel(p), numeric: true })),
      { label: 'Total', numeric: true },
    ],
    rows: dto.workload.map((w) => [assigneeName(w), ...TASK_PRIORITIES.map((p) => w[p]), w.total]),
  };
}

export function overdueTable(dto: AnalyticsDto): DataTable {
  return {
    caption: 'Open tasks past their due date at each week’s end',
    columns: [{ label: WEEK }, { label: 'Overdue', numeric: true }],
    rows: dto.overdue.map((p) => [p.week, p.count]),
  };
}

/** A status as the cumulative flow names it: a deleted one says so. */
export const flowStatusLabel = (status: CumulativeFlowDto['statuses'][number]): string =>
  status.deleted ? `${status.name} (${TEXT.deletedStatus})` : status.name;

export function cumulativeFlowTable(dto: CumulativeFlowDto): DataTable {
  return {
    caption: 'Tasks in each status at the end of each day',
    columns: [{ label: 'Day' }, ...dto.statuses.map((s) => ({ label: flowStatusLabel(s), numeric: true }))],
    rows: dto.days.map((d) => [d.day, ...d.counts]),
  };
}

/** A cell's plain value, as the CSV holds it and the table shows it. */
export const cellValue = (cell: Cell): CsvCell => (cell !== null && typeof cell === 'object' ? cell.text : cell);

/** The table as a CSV document (RFC 4180, formulas neutralised). */
export const tableCsv = (table: DataTable): string =>
  toCsv(
    table.columns.map((c) => c.label),
    table.rows.map((row) => row.map(cellValue)),
  );

/** 'crewboard-throughput-2026-11-25.csv'; a burn-up's names its project too. */
export function csvFileName(chart: ChartId, date: string, detail?: string): string {
  const part = detail ? fileSlug(detail) : '';
  return `crewboard-${chart}${part ? `-${part}` : ''}-${date}.csv`;
}

/** The scope holds no task at all: nothing open, nothing ever in its projects' scope, nothing completed. */
export function isScopeEmpty(dto: AnalyticsDto): boolean {
  return (
    dto.wip.every((w) => w.count === 0) &&
    dto.throughput.every((t) => t.completed === 0) &&
    dto.burnup.every((b) => b.points.every((p) => p.scope === 0))
  );
}

// ---- One-sentence summaries: each chart's accessible name (its table is the full alternative). ----

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function peak<T>(items: readonly T[], value: (item: T) => number): T | undefined {
  let best: T | undefined;
  for (const item of items) if (best === undefined || value(item) > value(best)) best = item;
  return best;
}

const span = (dto: AnalyticsDto) => rangeLabel(dto.scope.from, dto.scope.to);

export function throughputSummary(dto: AnalyticsDto): string {
  const total = dto.throughput.reduce((n, p) => n + p.completed, 0);
  const top = peak(dto.throughput, (p) => p.completed);
  const most = top && top.completed > 0 ? `; most in the week of ${weekTick(top.week)} (${top.completed})` : '';
  const split = dto.split;
  if (split) {
    const per = split.series
      .map((s, i) => `${s.name} ${split.throughput.reduce((n, w) => n + (w.counts[i] ?? 0), 0)}`)
      .join(', ');
    return `${CHARTS.throughput.title}, stacked bar chart by ${split.fieldName}: ${plural(total, 'task')} completed ${span(dto)} (${per})${most}.`;
  }
  return `${CHARTS.throughput.title}, bar chart: ${plural(total, 'task')} completed ${span(dto)}${most}.`;
}

export function cycleTimeSummary(dto: AnalyticsDto): string {
  const done = dto.cycleTime.weeks.filter((w) => w.medianHours !== null);
  const last = done.at(-1);
  const latest = last
    ? `; in the week of ${weekTick(last.week)} the median was ${formatHours(last.medianHours)} and the 85th percentile ${formatHours(last.p85Hours)}`
    : '; no task was completed';
  if (dto.split) {
    const names = dto.split.series.map((s) => s.name).join(', ');
    return `${CHARTS['cycle-time'].title}, line chart of the median per week for each ${dto.split.fieldName} (${names}), ${span(dto)}${latest}.`;
  }
  return `${CHARTS['cycle-time'].title}, line chart of the median and 85th percentile per week, ${span(dto)}${latest}.`;
}

export function distributionSummary(dto: AnalyticsDto): string {
  const total = dto.cycleTime.distribution.reduce((n, b) => n + b.count, 0);
  const top = peak(dto.cycleTime.distribution, (b) => b.count);
  const most = top && top.count > 0 ? `; the most took ${top.label} (${top.count})` : '';
  return `${CHARTS['cycle-time-distribution'].title}, bar chart of ${plural(total, 'completed task')}${most}.`;
}

export function burnupSummary(project: BurnupProject): string {
  const last = project.points.at(-1);
  const now = last ? `; at the latest week’s end ${last.completed} of ${last.scope} completed` : '';
  return `${CHARTS['burn-up'].title} of ${project.projectName}, line chart of scope and completed tasks${now}.`;
}

export function wipSummary(dto: AnalyticsDto): string {
  const parts = dto.wip.map((w) => `${w.name} ${w.count}`).join(', ');
  return `${CHARTS.wip.title}, bar chart of open tasks per ${wipUnit(dto)}: ${parts}.`;
}

export function workloadSummary(dto: AnalyticsDto): string {
  const top = dto.workload[0];
  const most = top ? `; most loaded: ${assigneeName(top)} with ${top.total}` : '';
  return `${CHARTS.workload.title}, stacked bar chart of open tasks per assignee by priority, ${plural(dto.workload.length, 'row')}${most}.`;
}

export function overdueSummary(dto: AnalyticsDto): string {
  const last = dto.overdue.at(-1);
  const top = peak(dto.overdue, (p) => p.count);
  const now = last ? `; ${last.count} at the latest week’s end` : '';
  const most = top && top.count > 0 ? `, most ${top.count} in the week of ${weekTick(top.week)}` : '';
  return `${CHARTS.overdue.title}, line chart of overdue open tasks per week, ${span(dto)}${now}${most}.`;
}

export function cumulativeFlowSummary(dto: CumulativeFlowDto): string {
  const last = dto.days.at(-1);
  const now = last
    ? `; on ${formatLongDate(last.day)}: ${dto.statuses.map((s, i) => `${flowStatusLabel(s)} ${last.counts[i] ?? 0}`).join(', ')}`
    : '';
  return `${CHARTS['cumulative-flow'].title}, stacked area chart of tasks per status each day, ${rangeLabel(dto.scope.from, dto.scope.to)}${now}.`;
}
