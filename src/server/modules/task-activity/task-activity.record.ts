import { type CustomFieldValue, fieldValueText } from '../../../domain/custom-fields';
import { HIDDEN_TASK_VALUE } from '../../../domain/dependencies';
import type { TaskDto } from '../../../domain/schemas/task';
import { SUBMITTED_BY_EMAIL, submittedVia } from '../../../domain/outside-texts';
import { type TaskActivityState, type TaskFieldChange, taskFieldChanges } from '../../../domain/task-activity';
import type { DbOrTx } from '../../db/client';
import {
  type CustomFieldChange,
  fieldsByIds,
  insertActivity,
  insertStatusMoves,
  taskTitles,
  userNames,
} from './task-activity.repo';

/** What the activity history compares of a task, with the names its ids stood for. */
const activityState = (task: TaskDto, parentTitle: string | null): TaskActivityState => ({
  title: task.title,
  description: task.description,
  status: task.status,
  priority: task.priority,
  assigneeId: task.assigneeId,
  assigneeName: task.assignee?.fullName ?? null,
  dueDate: task.dueDate,
  projectId: task.projectId,
  projectName: task.projectName,
  tags: task.tags,
  startDate: task.startDate,
  parentId: task.parentId,
  parentTitle,
  estimateMinutes: task.estimateMinutes,
  estimatePoints: task.estimatePoints,
});

/**
 * The history of an edit, written with it: one entry per field that changed from `before` to `after`. A status entry
 * carries the categories the task had before and after (migration 0012): only the writer knows them for a task moved
 * to another project, whose old key means nothing in the new one.
 */
export async function recordTaskEdit(db: DbOrTx, actorId: string, before: TaskDto, after: TaskDto): Promise<void> {
  // A new parent is named by its title at the time (one read, only when the parent changed).
  const titles =
    before.parentId === after.parentId ? new Map<string, string>() : await taskTitles(db, [before.parentId, after.parentId]);
  const titleOf = (id: string | null) => (id ? (titles.get(id) ?? null) : null);
  const changes = taskFieldChanges(
    activityState(before, titleOf(before.parentId)),
    activityState(after, titleOf(after.parentId)),
  ).map((c) => (c.field === 'status' ? { ...c, oldCategory: before.statusCategory, newCategory: after.statusCategory } : c));
  return insertActivity(db, after.id, actorId, [...changes, ...(await customFieldChanges(db, before, after))]);
}

const storedValue = (value: CustomFieldValue | null): string | null => (value === null ? null : JSON.stringify(value));

/**
 * One 'custom_field' entry per custom field whose value changed (issue 38, decision 0026), in the fields' order: the
 * field's id and its name now, the stored values as JSON text, and the values as a person reads them (domain
 * `fieldValueText`, a person by their name). Reads the fields (and the people named) only when a value changed; a
 * field that no longer exists is not recorded.
 */
async function customFieldChanges(db: DbOrTx, before: TaskDto, after: TaskDto): Promise<CustomFieldChange[]> {
  const ids = [...new Set([...Object.keys(before.fields), ...Object.keys(after.fields)])].filter(
    (id) => storedValue(before.fields[id] ?? null) !== storedValue(after.fields[id] ?? null),
  );
  if (ids.length === 0) return [];
  const fields = await fieldsByIds(db, ids);
  const people = fields.flatMap((f) =>
    f.type === 'person' ? [before.fields[f.id], after.fields[f.id]].filter((v): v is string => typeof v === 'string') : [],
  );
  const names = await userNames(db, [...new Set(people)]);
  const nameOf = (userId: string) => names.get(userId) ?? null;
  return fields.map((field) => {
    const oldValue = before.fields[field.id] ?? null;
    const newValue = after.fields[field.id] ?? null;
    return {
      field: 'custom_field',
      fieldId: field.id,
      fieldName: field.name,
      oldValue: storedValue(oldValue),
      newValue: storedValue(newValue),
      oldLabel: fieldValueText(field, oldValue, nameOf),
      newLabel: fieldValueText(field, newValue, nameOf),
    };
  });
}

/** The history of tasks moved together out of a deleted status: one status entry each, in one statement. */
export function recordStatusMoves(
  db: DbOrTx,
  actorId: string,
  taskIds: readonly string[],
  move: { from: string; to: string },
): Promise<void> {
  return insertStatusMoves(db, taskIds, actorId, move);
}

/**
 * A time entry logged, changed or deleted (issue 39): one 'time_entry' entry on its task, the minutes as the value
 * (new: logged, old: deleted, both: changed) and the entry's day as the label. A change to the note alone is not
 * history (the entry shows it).
 */
export async function recordTimeEntryChange(
  db: DbOrTx,
  actorId: string,
  taskId: string,
  before: { date: string; minutes: number } | null,
  after: { date: string; minutes: number } | null,
): Promise<void> {
  if (before && after && before.date === after.date && before.minutes === after.minutes) return;
  await insertActivity(db, taskId, actorId, [
    {
      field: 'time_entry',
      oldValue: before ? String(before.minutes) : null,
      newValue: after ? String(after.minutes) : null,
      oldLabel: before?.date ?? null,
      newLabel: after?.date ?? null,
    },
  ]);
}

/**
 * A task that came from outside the team (issue 40): its first entry, 'Submitted via <form name>' (or 'Submitted by
 * email') as the label and the requester's email as the value. `actorId`: the member who mailed it, else null.
 */
export async function recordSubmitted(
  db: DbOrTx,
  actorId: string | null,
  taskId: string,
  submitted: { via: 'form' | 'email'; name: string | null; email: string | null },
): Promise<void> {
  const label = submitted.via === 'form' && submitted.name ? submittedVia(submitted.name) : SUBMITTED_BY_EMAIL;
  await insertActivity(db, taskId, actorId, [
    { field: 'submitted', oldValue: null, newValue: submitted.email, oldLabel: null, newLabel: label },
  ]);
}

/**
 * A dependency added or removed (issue 37): an entry on each task, 'blocked_by' on the blocked one and 'blocking' on the
 * blocker, the other task's id as the new value (added) or the old one (removed) and its title at the time as the label.
 * An other task in another team (a dependency left across teams by a project's move) is written as HIDDEN_TASK_VALUE
 * with no title: the entry outlives the task, and once that task is deleted no read could tell it was another team's.
 */
export async function recordDependencyChange(
  db: DbOrTx,
  actorId: string,
  dependency: {
    task: { id: string; title: string; teamId: string };
    blocker: { id: string; title: string; teamId: string };
  },
  added: boolean,
): Promise<void> {
  const entry = (
    field: 'blocked_by' | 'blocking',
    other: { id: string; title: string; teamId: string },
    teamId: string,
  ): TaskFieldChange => {
    const [value, label] = other.teamId === teamId ? [other.id, other.title] : [HIDDEN_TASK_VALUE, null];
    return added
      ? { field, oldValue: null, newValue: value, oldLabel: null, newLabel: label }
      : { field, oldValue: value, newValue: null, oldLabel: label, newLabel: null };
  };
  const { task, blocker } = dependency;
  await insertActivity(db, task.id, actorId, [entry('blocked_by', blocker, task.teamId)]);
  await insertActivity(db, blocker.id, actorId, [entry('blocking', task, blocker.teamId)]);
}
