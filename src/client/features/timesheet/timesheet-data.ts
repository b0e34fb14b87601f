/**
 * /timesheet's pure rules (issue 39): the week shown (Monday to Sunday, as Analytics counts weeks), the grid of a
 * person's entries (task rows × days, with totals per day, per task and for the week), and the CSV of the shown range.
 */
import { mondayOf } from '../../../domain/analytics';
import { type CsvCell, fileSlug, toCsv } from '../../../domain/csv';
import { addDays, formatShortDate, parseIsoDate } from '../../../domain/dates';
import type { TimeEntryDto } from '../../../domain/schemas/time';

export const DAYS_A_WEEK = 7;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const WEEKDAY_SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const WEEKDAY_LONG = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** The Monday of the week the URL's `week` falls in; this week's (of `today`) when absent or not a date. */
export function weekStart(param: string | null, today: string): string {
  if (param && ISO_DATE.test(param)) {
    try {
      parseIsoDate(param);
      return mondayOf(param);
    } catch {
      // Not a calendar date (2025-02-30): this week.
    }
  }
  return mondayOf(today);
}

/** The seven days from a Monday. */
export const weekDays = (monday: string): string[] => Array.from({ length: DAYS_A_WEEK }, (_, i) => addDays(monday, i));

/** 'Mon' and 'Mar 03' for a column's head; 'Monday, Mar 03' for a cell's label. */
export function dayLabels(date: string): { short: string; date: string; long: string } {
  const weekday = parseIsoDate(date).getUTCDay();
  return {
    short: WEEKDAY_SHORT[weekday]!,
    date: formatShortDate(date),
    long: `${WEEKDAY_LONG[weekday]}, ${formatShortDate(date)}`,
  };
}

/** 'Mar 03 – Mar 09, 2025' (the year of the Sunday). */
export const weekTitle = (monday: string): string => {
  const sunday = addDays(monday, DAYS_A_WEEK - 1);
  return `${formatShortDate(monday)} – ${formatShortDate(sunday)}, ${sunday.slice(0, 4)}`;
};

export interface TimesheetRow {
  taskId: string;
  title: string;
  projectName: string;
  /** Per day of the week (Monday first): that day's entries of the task, oldest first. */
  cells: TimeEntryDto[][];
  total: number;
}

export interface TimesheetGrid {
  rows: TimesheetRow[];
  /** Per day of the week, Monday first. */
  dayTotals: number[];
  total: number;
}

const sum = (entries: readonly TimeEntryDto[]) => entries.reduce((n, e) => n + e.minutes, 0);

/**
 * The grid of a week's entries: a row per task that has any (by project, then title), a cell per day. Entries outside
 * the week are left out.
 */
export function buildGrid(entries: readonly TimeEntryDto[], monday: string): TimesheetGrid {
  const days = weekDays(monday);
  const index = new Map(days.map((d, i) => [d, i]));
  const rows = new Map<string, TimesheetRow>();
  const sorted = [...entries].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  for (const entry of sorted) {
    const day = index.get(entry.date);
    if (day === undefined) continue;
    let row = rows.get(entry.taskId);
    if (!row) {
      row = {
        taskId: entry.taskId,
        title: entry.task.title,
        projectName: entry.task.projectName,
        cells: days.map(() => []),
        total: 0,
      };
      rows.set(entry.taskId, row);
    }
    row.cells[day]!.push(entry);
    row.total += entry.minutes;
  }
  const ordered = [...rows.values()].sort(
    (a, b) => a.projectName.localeCompare(b.projectName) || a.title.localeCompare(b.title) || a.taskId.localeCompare(b.taskId),
  );
  const dayTotals = days.map((_, i) => ordered.reduce((n, row) => n + sum(row.cells[i]!), 0));
  return { rows: ordered, dayTotals, total: dayTotals.reduce((n, m) => n + m, 0) };
}

/**
 * What typing in a cell does, given the day's entries and the text: nothing (the same minutes, or an empty cell left
 * empty), create an entry, change the one entry's minutes, delete it (the cell emptied), or refuse the text.
 * A cell holding several entries is not edited here (their notes and authors differ: the task page edits them).
 */
export type CellEdit =
  | { kind: 'none' }
  | { kind: 'create'; minutes: number }
  | { kind: 'update'; entryId: string; minutes: number }
  | { kind: 'delete'; entryId: string }
  | { kind: 'invalid'; message: string };

export function cellEdit(
  entries: readonly TimeEntryDto[],
  text: string,
  parse: (text: string) => number | null,
  limits: { max: number; invalid: string; tooLong: string },
): CellEdit {
  const current = entries[0];
  if (entries.length > 1) return { kind: 'none' };
  if (text.trim() === '') return current ? { kind: 'delete', entryId: current.id } : { kind: 'none' };
  const minutes = parse(text);
  if (minutes === null) return { kind: 'invalid', message: limits.invalid };
  if (minutes > limits.max) return { kind: 'invalid', message: limits.tooLong };
  if (!current) return { kind: 'create', minutes };
  return minutes === current.minutes ? { kind: 'none' } : { kind: 'update', entryId: current.id, minutes };
}

/** Hours with at most two decimals (90 → 1.5). */
export const hoursOf = (minutes: number): number => Math.round((minutes / 60) * 100) / 100;

export const CSV_HEADER = ['date', 'person', 'team', 'project', 'task', 'minutes', 'hours', 'note'] as const;

/** The shown range's entries as RFC 4180 CSV (domain csv.ts), by date, then project and task. */
export function timesheetCsv(entries: readonly TimeEntryDto[], teamName: (teamId: string) => string): string {
  const rows: CsvCell[][] = [...entries]
    .sort(
      (a, b) =>
        a.date.localeCompare(b.date) ||
        a.task.projectName.localeCompare(b.task.projectName) ||
        a.task.title.localeCompare(b.task.title) ||
        a.createdAt.localeCompare(b.createdAt),
    )
    .map((e) => [
      e.date,
      e.userName,
      teamName(e.task.teamId),
      e.task.projectName,
      e.task.title,
      e.minutes,
      hoursOf(e.minutes),
      e.note ?? '',
    ]);
  return toCsv(CSV_HEADER, rows);
}

/** 'timesheet-olive-owner-2025-03-03.csv'. */
export const csvFileName = (person: string, monday: string): string => `timesheet-${fileSlug(person) || 'person'}-${monday}.csv`;
