/**
 * A CSV of tasks mapped column by column onto task fields (issue 26). The server reads the file into records
 * (csv-parse: quotes, embedded newlines and commas, BOM); this turns the records into tasks, row by row, with each
 * row's problems named by its line in the file.
 */
import {
  LIMITS,
  TASK_PRIORITIES,
  TASK_PRIORITY_LABELS,
  TASK_STATUSES,
  TASK_STATUS_LABELS,
  type TaskPriority,
  type TaskStatus,
} from '../constants';
import { unguardCsvField } from '../csv';
import {
  CSV_IMPORT_FIELD_LABELS,
  CSV_NEW_FIELD,
  type CsvImportField,
  type CsvMappingTarget,
  type CsvPreviewTask,
  type CsvRowError,
  TRANSFER_LIMITS,
} from '../schemas/transfer';
import { validateStartDate } from '../dates';
import { TASK_STRUCTURE_ERRORS } from '../task-structure-errors';
import { type CsvFieldDef, csvFieldValue, newFieldFromColumn, parseDueDate } from './csv-fields';
import { type ImportPlan, oneProjectPlan, type PlanField, type PlanFieldValues } from './import-plan';
import { fieldValueText } from '../custom-fields';

/** A start after the due date (the task form's and the API's message). */
export const START_AFTER_DUE = TASK_STRUCTURE_ERRORS.start_after_due.message;

/** One record of the file: its cells, and the line of the file it starts on (1 is the header). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

const normal = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');

/** Header names (normalised) that suggest a field, the first match wins. */
const HEADER_HINTS: [CsvImportField, RegExp][] = [
  ['title', /^(title|name|task|task name|summary|subject|card name)$/],
  ['description', /^(description|desc|details|notes|body|card description)$/],
  ['status', /^(status|state|list|list name|stage|column)$/],
  ['priority', /^(priority|prio|importance)$/],
  ['startDate', /^(start|start date|startdate|starts|starts on|start on|begin|begins|begin date)$/],
  ['dueDate', /^(due|due date|duedate|deadline|due on|due at)$/],
  ['tags', /^(tags|tag|labels|label)$/],
  ['assignee', /^(assignee|assigned to|assignee email|owner|responsible|members?)$/],
];

/**
 * A mapping guessed from the headers: a column named as one of the team's custom fields `fields` (any case) goes to it;
 * else each task field from the first column whose name suggests it; the rest ignored.
 */
export function suggestCsvMapping(
  headers: readonly string[],
  fields: readonly Pick<CsvFieldDef, 'id' | 'name'>[] = [],
): Record<string, CsvMappingTarget> {
  const taken = new Set<CsvImportField>();
  const takenFields = new Set<string>();
  const mapping: Record<string, CsvMappingTarget> = {};
  for (const header of headers) {
    const field = fields.find((f) => !takenFields.has(f.id) && f.name.trim().toLowerCase() === header.trim().toLowerCase());
    if (field) {
      mapping[header] = `field:${field.id}`;
      takenFields.add(field.id);
      continue;
    }
    const hint = HEADER_HINTS.find(([field, re]) => !taken.has(field) && re.test(normal(header)));
    mapping[header] = hint ? hint[0] : 'ignore';
    if (hint) taken.add(hint[0]);
  }
  return mapping;
}

/** Headers made unique ('Name', 'Name (2)'), so a mapping by header names each column once. */
export function uniqueHeaders(headers: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return headers.map((raw) => {
    const header = raw.trim() || 'Column';
    const n = (seen.get(header) ?? 0) + 1;
    seen.set(header, n);
    return n === 1 ? header : `${header} (${n})`;
  });
}

const keyOrLabel = <K extends string>(keys: readonly K[], labels: Record<K, string>, extra: Record<string, K> = {}) => {
  const table = new Map<string, K>();
  for (const key of keys) {
    table.set(normal(key), key);
    table.set(normal(labels[key]), key);
  }
  for (const [alias, key] of Object.entries(extra)) table.set(alias, key);
  return (value: string): K | undefined => table.get(normal(value));
};

/** A status from its key ('in_progress') or label ('In Progress'), any case; a few common words too ('done'). */
export const parseStatus = keyOrLabel(TASK_STATUSES, TASK_STATUS_LABELS, {
  'to do': 'todo',
  open: 'todo',
  backlog: 'todo',
  doing: 'in_progress',
  'in review': 'review',
  done: 'completed',
  complete: 'completed',
  closed: 'completed',
});

/** A priority from its key or label, any case. */
export const parsePriority = keyOrLabel(TASK_PRIORITIES, TASK_PRIORITY_LABELS);

export { parseDueDate };

/**
 * Tags from 'a, b; c' (comma or semicolon separated), each once. A tag in double quotes may hold commas, semicolons
 * and doubled quotes ('"alpha, beta", gamma': two tags), as the export writes it (task-csv.ts tagsCell).
 */
export function parseTags(value: string): string[] {
  const tags: string[] = [];
  const add = (raw: string) => {
    const tag = raw.trim();
    if (tag && !tags.some((t) => t.toLowerCase() === tag.toLowerCase())) tags.push(tag);
  };
  let i = 0;
  while (i < value.length) {
    while (i < value.length && /\s/.test(value[i]!)) i++;
    if (value[i] === '"') {
      let tag = '';
      let j = i + 1;
      let closed = false;
      for (; j < value.length; j++) {
        if (value[j] === '"' && value[j + 1] === '"') {
          tag += '"';
          j++;
        } else if (value[j] === '"') {
          closed = true;
          break;
        } else tag += value[j];
      }
      const end = value.slice(j + 1).search(/[,;]/);
      if (closed && (end < 0 || value.slice(j + 1, j + 1 + end).trim() === '')) {
        add(tag);
        i = end < 0 ? value.length : j + 1 + end + 1;
        continue;
      }
      // Not a quoted tag after all (no closing quote, or text after it): read as plain text.
    }
    const end = value.slice(i).search(/[,;]/);
    add(end < 0 ? value.slice(i) : value.slice(i, i + end));
    i = end < 0 ? value.length : i + end + 1;
  }
  return tags;
}

export interface CsvMember {
  id: string;
  email: string;
  fullName: string;
}

export interface CsvTask extends Omit<CsvPreviewTask, 'assignee' | 'fields'> {
  assigneeId: string | null;
  assigneeName: string | null;
  /** Custom field values by the plan's field refs (an existing field's id, `new:<header>` for a new one). */
  fields: PlanFieldValues;
  /** The same values as a person reads them, by field name (the preview). */
  fieldTexts: Record<string, string>;
}

export interface CsvPlan {
  tasks: CsvTask[];
  errors: CsvRowError[];
  warnings: string[];
  /** The custom fields the values name: the team's (`existingId`) and the new ones the mapping asks for. */
  fields: PlanField[];
}

/** The custom fields a CSV import may fill (issue 38). */
export interface CsvFieldContext {
  /** The team's fields a column may map to: those that apply to the project the tasks go into. */
  fields: readonly CsvFieldDef[];
  /** Every field name of the team (archived ones too): a new field may take none of them. */
  takenNames: readonly string[];
}

/**
 * The tasks the records make under `mapping` (header → field; headers it does not name are ignored), assignees looked
 * up among `members` by email or full name (any case). A row that cannot become a task is an error on its line;
 * an assignee who is not a member leaves the task unassigned, with a warning.
 */
export function planCsvImport(
  headers: readonly string[],
  records: readonly CsvRecord[],
  mapping: Record<string, CsvMappingTarget>,
  members: readonly CsvMember[],
  context: CsvFieldContext = { fields: [], takenNames: [] },
): CsvPlan {
  const errors: CsvRowError[] = [];
  const warnings: string[] = [];
  const column: Partial<Record<Exclude<CsvImportField, 'ignore'>, number>> = {};
  /** Columns mapped to custom fields: the column, the field (a new one has the ref `new:<header>`). */
  const fieldColumns: { index: number; ref: string; def: CsvFieldDef }[] = [];
  const planFields: PlanField[] = [];
  const taken = new Set(context.takenNames.map((n) => n.trim().toLowerCase()));
  for (const [header, field] of Object.entries(mapping)) {
    const index = headers.indexOf(header);
    if (index < 0) {
      warnings.push(`The mapping names a column the file does not have: "${header.slice(0, 60)}"`);
      continue;
    }
    if (field === 'ignore') continue;
    if (field === CSV_NEW_FIELD) {
      const made = newFieldFromColumn(
        header,
        records.map((r) => unguardCsvField((r.cells[index] ?? '').trim())),
      );
      if (taken.has(made.name.toLowerCase())) {
        errors.push({ line: 1, message: `The team already has a field named "${made.name}": map the column to it` });
        continue;
      }
      taken.add(made.name.toLowerCase());
      const ref = `new:${header}`;
      const def: CsvFieldDef = { id: ref, name: made.name, type: made.type, options: [], decimals: null, unit: null };
      fieldColumns.push({ index, ref, def });
      planFields.push({
        ref,
        name: made.name,
        type: made.type,
        options: [],
        projectRefs: null,
        showOnCard: false,
        archived: false,
        unit: null,
        decimals: null,
      });
      continue;
    }
    if (field.startsWith('field:')) {
      const def = context.fields.find((f) => `field:${f.id}` === field);
      if (!def) {
        warnings.push(`"${header.slice(0, 60)}": no such custom field for this project: the column is ignored`);
        continue;
      }
      if (fieldColumns.some((c) => c.ref === def.id)) {
        errors.push({ line: 1, message: `Only one column can be the field ${def.name}` });
        continue;
      }
      fieldColumns.push({ index, ref: def.id, def });
      planFields.push({
        ref: def.id,
        existingId: def.id,
        name: def.name,
        type: def.type,
        options: def.options.map((o) => ({ ref: o.id, id: o.id, name: o.name, color: o.color })),
        projectRefs: null,
        showOnCard: false,
        archived: false,
        unit: def.unit,
        decimals: def.decimals,
      });
      continue;
    }
    if (!isTaskField(field)) continue;
    if (column[field] !== undefined) {
      errors.push({ line: 1, message: `Only one column can be the ${CSV_IMPORT_FIELD_LABELS[field].toLowerCase()}` });
      continue;
    }
    column[field] = index;
  }
  if (column.title === undefined) errors.push({ line: 1, message: 'Choose the column that holds the task titles' });
  if (errors.length) return { tasks: [], errors, warnings, fields: [] };

  const byEmail = new Map(members.map((m) => [m.email.toLowerCase(), m]));
  const byName = new Map<string, CsvMember | null>();
  for (const m of members) {
    const key = m.fullName.trim().toLowerCase();
    byName.set(key, byName.has(key) ? null : m); // two members of one name: ambiguous
  }

  const tasks: CsvTask[] = [];
  const cell = (record: CsvRecord, field: keyof typeof column) => {
    const index = column[field];
    // The apostrophe an export puts before a formula start is taken off (domain/csv.ts).
    return index === undefined ? '' : unguardCsvField((record.cells[index] ?? '').trim());
  };
  for (const record of records) {
    if (record.cells.every((c) => c.trim() === '')) continue;
    const problems: string[] = [];
    const title = cell(record, 'title');
    if (!title) problems.push('Title is required');
    else if (title.length > TRANSFER_LIMITS.titleMax)
      problems.push(`Title is longer than ${TRANSFER_LIMITS.titleMax} characters`);
    const description = cell(record, 'description');
    if (description.length > LIMITS.descriptionMax) {
      problems.push(`Description is longer than ${LIMITS.descriptionMax} characters`);
    }
    const statusText = cell(record, 'status');
    const status: TaskStatus | undefined = statusText ? parseStatus(statusText) : 'todo';
    if (!status) problems.push(`Unknown status "${statusText.slice(0, 40)}"`);
    const priorityText = cell(record, 'priority');
    const priority: TaskPriority | undefined = priorityText ? parsePriority(priorityText) : 'medium';
    if (!priority) problems.push(`Unknown priority "${priorityText.slice(0, 40)}"`);
    const dueText = cell(record, 'dueDate');
    const dueDate = dueText ? parseDueDate(dueText) : null;
    if (dueDate === undefined) problems.push(`Due date "${dueText.slice(0, 40)}" is not a date (YYYY-MM-DD)`);
    const startText = cell(record, 'startDate');
    const startDate = startText ? parseDueDate(startText) : null;
    if (startDate === undefined) problems.push(`Start date "${startText.slice(0, 40)}" is not a date (YYYY-MM-DD)`);
    else if (dueDate !== undefined && !validateStartDate(startDate, dueDate).ok) problems.push(START_AFTER_DUE);
    const tags = parseTags(cell(record, 'tags'));
    if (tags.length > LIMITS.tagsMax) problems.push(`More than ${LIMITS.tagsMax} tags`);
    const long = tags.find((t) => t.length > LIMITS.tagMax);
    if (long) problems.push(`Tag "${long.slice(0, 40)}…" is longer than ${LIMITS.tagMax} characters`);
    const who = cell(record, 'assignee');
    const assignee = who ? (byEmail.get(who.toLowerCase()) ?? byName.get(who.toLowerCase()) ?? null) : null;
    if (who && !assignee)
      warnings.push(`Line ${record.line}: "${who.slice(0, 60)}" is not a member of the team: left unassigned`);

    if (problems.length) {
      errors.push({ line: record.line, message: problems.join('; ') });
      continue;
    }
    // Custom field values: one that does not fit its field is a warning, the task kept without it.
    const fields: PlanFieldValues = {};
    const fieldTexts: Record<string, string> = {};
    for (const { index, ref, def } of fieldColumns) {
      const read = csvFieldValue(def, unguardCsvField((record.cells[index] ?? '').trim()), members);
      if (!read.ok) {
        warnings.push(`Line ${record.line}: ${read.message}: left empty`);
        continue;
      }
      if (read.value === null) continue;
      fields[ref] = read.value;
      const text = fieldValueText(def, read.value, (id) => members.find((m) => m.id === id)?.fullName ?? null);
      if (text !== null) fieldTexts[def.name] = text;
    }
    tasks.push({
      line: record.line,
      title,
      description: description || null,
      status: status!,
      priority: priority!,
      startDate: startDate ?? null,
      dueDate: dueDate ?? null,
      tags,
      assigneeId: assignee?.id ?? null,
      assigneeName: assignee?.fullName ?? null,
      fields,
      fieldTexts,
    });
  }
  // A new field used by no row is not made.
  const used = new Set(tasks.flatMap((t) => Object.keys(t.fields)));
  return { tasks, errors, warnings, fields: planFields.filter((f) => used.has(f.ref)) };
}

const isTaskField = (target: string): target is Exclude<CsvImportField, 'ignore'> =>
  target in CSV_IMPORT_FIELD_LABELS && target !== 'ignore';

/** The plan of a CSV import into team `teamId`: into the project `into` (of the team), or a new one named `newName`. */
export function csvImportPlan(
  plan: CsvPlan,
  teamId: string,
  project: { existingId: string; name: string } | { newName: string },
): ImportPlan {
  const into = 'existingId' in project ? { existingId: project.existingId, name: project.name } : { name: project.newName };
  return oneProjectPlan('csv', teamId, { ...into, description: null }, plan.tasks, plan.warnings, plan.fields);
}
