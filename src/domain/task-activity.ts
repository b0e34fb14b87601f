import type { TaskActivityField } from './constants';
import { formatDuration } from './durations';

/**
 * What the activity history records of a change to a task (issue 22): one entry per field that changed, with the
 * stored values (a status or priority key, a user or project id, an ISO date, tags comma-joined) and, where an id
 * alone means nothing to a reader, the name it stood for at the time.
 */

/** A task's recorded fields as stored, with the names its ids stood for. */
export interface TaskActivityState {
  title: string;
  description: string | null;
  status: string;
  priority: string;
  assigneeId: string | null;
  assigneeName: string | null;
  dueDate: string | null;
  projectId: string;
  projectName: string | null;
  tags: readonly string[];
  startDate: string | null;
  parentId: string | null;
  /** The parent's title, read by the writer only when the parent changed. */
  parentTitle: string | null;
  /** The estimate (issue 39): in minutes, in story points, or both (the API takes both; the team shows one). */
  estimateMinutes: number | null;
  estimatePoints: number | null;
}

export interface TaskFieldChange {
  field: TaskActivityField;
  oldValue: string | null;
  newValue: string | null;
  oldLabel: string | null;
  newLabel: string | null;
}

const tagsValue = (tags: readonly string[]): string | null => (tags.length > 0 ? tags.join(',') : null);

/** An estimate as stored in the history: '90m', '5pt', '90m 5pt' (null: none). */
const estimateValue = (s: TaskActivityState): string | null =>
  [s.estimateMinutes !== null && `${s.estimateMinutes}m`, s.estimatePoints !== null && `${s.estimatePoints}pt`]
    .filter(Boolean)
    .join(' ') || null;
/** An estimate as a person reads it: '1h 30m', '5 points', '1h 30m · 5 points' (null: none). */
const estimateLabel = (s: TaskActivityState): string | null =>
  [
    s.estimateMinutes !== null && formatDuration(s.estimateMinutes),
    s.estimatePoints !== null && `${s.estimatePoints} ${s.estimatePoints === 1 ? 'point' : 'points'}`,
  ]
    .filter(Boolean)
    .join(' · ') || null;

/** The changes from `before` to `after`, in the order of TASK_ACTIVITY_FIELDS; empty when nothing changed. */
export function taskFieldChanges(before: TaskActivityState, after: TaskActivityState): TaskFieldChange[] {
  const changes: TaskFieldChange[] = [];
  const push = (
    field: TaskActivityField,
    oldValue: string | null,
    newValue: string | null,
    oldLabel: string | null = null,
    newLabel: string | null = null,
  ) => {
    if (oldValue !== newValue) changes.push({ field, oldValue, newValue, oldLabel, newLabel });
  };
  push('title', before.title, after.title);
  // The text is the task's own (and may be long): the history says only that it changed.
  if (before.description !== after.description) {
    changes.push({ field: 'description', oldValue: null, newValue: null, oldLabel: null, newLabel: null });
  }
  push('status', before.status, after.status);
  push('priority', before.priority, after.priority);
  push('assignee', before.assigneeId, after.assigneeId, before.assigneeName, after.assigneeName);
  push('due_date', before.dueDate, after.dueDate);
  push('project', before.projectId, after.projectId, before.projectName, after.projectName);
  // Compared as arrays: a tag holding a comma must not make two different lists look equal.
  if (before.tags.length !== after.tags.length || before.tags.some((t, i) => t !== after.tags[i])) {
    changes.push({
      field: 'tags',
      oldValue: tagsValue(before.tags),
      newValue: tagsValue(after.tags),
      oldLabel: null,
      newLabel: null,
    });
  }
  push('start_date', before.startDate, after.startDate);
  push('parent', before.parentId, after.parentId, before.parentTitle, after.parentTitle);
  push('estimate', estimateValue(before), estimateValue(after), estimateLabel(before), estimateLabel(after));
  return changes;
}
