import { TASK_PRIORITY_LABELS, TASK_STATUS_LABELS, type TaskPriority, type TaskStatus } from '../constants';
import { toCsv } from '../csv';

/** The list view's columns (task-list-table.tsx), then when the task was made and its description. */
export const TASK_CSV_HEADER = [
  'Title',
  'Status',
  'Priority',
  'Assignee',
  'Start Date',
  'Due Date',
  'Project',
  'Tags',
  'Created',
  'Description',
] as const;

export interface TaskCsvRow {
  title: string;
  /** A status key: the default four by their labels, any other by its key (statuses' names travel in step 7). */
  status: string;
  priority: TaskPriority;
  assigneeName: string | null;
  startDate: string | null;
  dueDate: string | null;
  projectName: string;
  tags: string[];
  createdAt: string;
  description: string | null;
  /** The custom field columns' cells (issue 38), in the order of `tasksCsv`'s `fieldHeaders`. */
  fields?: (string | null)[];
}

/**
 * Tags in one cell, joined by ", ": a tag holding a comma, semicolon or double quote is put in double quotes (its
 * quotes doubled), so that the import's parseTags splits the cell into the same tags ('"alpha, beta", gamma').
 */
export function tagsCell(tags: readonly string[]): string {
  return tags.map((t) => (/[,;"]/.test(t) ? `"${t.replaceAll('"', '""')}"` : t)).join(', ');
}

/** UTF-8 with a byte order mark: spreadsheets then read non-ASCII text right. */
export const CSV_BOM = '\uFEFF';

/**
 * The tasks as a CSV document (RFC 4180, formula-looking cells neutralised by domain/csv.ts), statuses and priorities
 * as the list view shows them, tags joined by ", " (tagsCell; the CSV import splits them again), then a column per
 * custom field (`fieldHeaders`: the fields' names; each row's `fields` the values as a person reads them).
 */
export function tasksCsv(rows: readonly TaskCsvRow[], fieldHeaders: readonly string[] = []): string {
  return (
    CSV_BOM +
    toCsv(
      [...TASK_CSV_HEADER, ...fieldHeaders],
      rows.map((r) => [
        r.title,
        TASK_STATUS_LABELS[r.status as TaskStatus] ?? r.status,
        TASK_PRIORITY_LABELS[r.priority],
        r.assigneeName,
        r.startDate,
        r.dueDate,
        r.projectName,
        tagsCell(r.tags),
        r.createdAt,
        r.description,
        ...fieldHeaders.map((_, i) => r.fields?.[i] ?? null),
      ]),
    )
  );
}
