import { TASK_PRIORITY_LABELS, TASK_STATUS_LABELS } from '../../../../../domain/constants';
import { formatLongDate } from '../../../../../domain/dates';
import { DEPENDENCY_TEXT, HIDDEN_TASK_VALUE } from '../../../../../domain/dependencies';
import { formatDuration } from '../../../../../domain/durations';
import type { ActivityDto } from '../../../../../domain/schemas/task-detail';

/** Who did it, as a sentence starts: their name, or 'A former member' once the account is gone. */
export const actorName = (actor: { fullName: string } | null) => actor?.fullName ?? 'A former member';

const label = (table: Record<string, string>, key: string | null) => (key ? (table[key] ?? key) : null);
const quoted = (s: string | null) => `“${s ?? ''}”`;
const date = (iso: string | null) => (iso && /^\d{4}-\d{2}-\d{2}$/.test(iso) ? formatLongDate(iso) : iso);
const tags = (joined: string | null) => (joined ? joined.split(',').join(', ') : null);

/**
 * What an entry of the history says after the actor's name: 'moved this from To Do to In Progress'. Names come from
 * the labels recorded at the time (a project renamed since keeps its old name here).
 */
export function describeActivity(
  entry: Pick<ActivityDto, 'field' | 'oldValue' | 'newValue' | 'oldLabel' | 'newLabel'> & { fieldName?: string | null },
): string {
  const { oldValue, newValue, oldLabel, newLabel } = entry;
  switch (entry.field) {
    case 'title':
      return `renamed this from ${quoted(oldValue)} to ${quoted(newValue)}`;
    case 'description':
      return 'updated the description';
    case 'status':
      // The status's name when the entry recorded one (any workflow's), else the default four's label or the key.
      return `moved this from ${oldLabel ?? label(TASK_STATUS_LABELS, oldValue)} to ${newLabel ?? label(TASK_STATUS_LABELS, newValue)}`;
    case 'priority':
      return `changed the priority from ${label(TASK_PRIORITY_LABELS, oldValue)} to ${label(TASK_PRIORITY_LABELS, newValue)}`;
    case 'assignee': {
      const before = oldValue ? (oldLabel ?? 'a former member') : null;
      const after = newValue ? (newLabel ?? 'a former member') : null;
      if (!before && after) return `assigned this to ${after}`;
      if (before && !after) return `unassigned ${before}`;
      return `reassigned this from ${before} to ${after}`;
    }
    case 'due_date':
      if (!oldValue) return `set the due date to ${date(newValue)}`;
      if (!newValue) return `removed the due date (was ${date(oldValue)})`;
      return `changed the due date from ${date(oldValue)} to ${date(newValue)}`;
    case 'project':
      return `moved this from project ${oldLabel ?? 'a deleted project'} to ${newLabel ?? 'a deleted project'}`;
    case 'tags':
      if (!newValue) return 'removed the tags';
      if (!oldValue) return `tagged this ${tags(newValue)}`;
      return `changed the tags to ${tags(newValue)}`;
    case 'start_date':
      if (!oldValue) return `set the start date to ${date(newValue)}`;
      if (!newValue) return `removed the start date (was ${date(oldValue)})`;
      return `changed the start date from ${date(oldValue)} to ${date(newValue)}`;
    case 'parent': {
      // The parent's title at the time; a task deleted since is named by what it was.
      const before = oldValue ? quoted(oldLabel ?? 'a deleted task') : null;
      const after = newValue ? quoted(newLabel ?? 'a deleted task') : null;
      if (!before) return `made this a sub-task of ${after}`;
      if (!after) return `made this a top-level task (was a sub-task of ${before})`;
      return `moved this from under ${before} to under ${after}`;
    }
    case 'blocked_by':
    case 'blocking': {
      // The other task's title at the time; a task the reader cannot see now comes without its id or title.
      const other = newValue ?? oldValue;
      const name = other === HIDDEN_TASK_VALUE ? DEPENDENCY_TEXT.hiddenTask : quoted(newLabel ?? oldLabel ?? 'a deleted task');
      const relation = entry.field === 'blocked_by' ? 'blocked by' : 'blocking';
      return newValue ? `added a dependency: ${relation} ${name}` : `removed a dependency: no longer ${relation} ${name}`;
    }
    case 'custom_field': {
      // The field's name and its values as they read at the time (domain custom-fields.ts `fieldValueText`).
      // Whether there was a value goes by the values; a value whose label was already gone reads 'a removed value'.
      const name = entry.fieldName ?? 'a deleted field';
      const before = oldValue ? (oldLabel ?? 'a removed value') : null;
      const after = newValue ? (newLabel ?? 'a removed value') : null;
      if (!before) return `set ${name} to ${after ?? 'nothing'}`;
      if (!after) return `cleared ${name} (was ${before})`;
      return `changed ${name} from ${before} to ${after}`;
    }
    case 'estimate':
      // The labels say the estimate as it read then ('1h 30m', '5 points').
      if (!oldValue) return `set the estimate to ${newLabel ?? newValue}`;
      if (!newValue) return `removed the estimate (was ${oldLabel ?? oldValue})`;
      return `changed the estimate from ${oldLabel ?? oldValue} to ${newLabel ?? newValue}`;
    case 'time_entry': {
      // Values: the entry's minutes; labels: its day.
      const logged = (minutes: string | null, day: string | null) => `${formatDuration(Number(minutes))} on ${date(day)}`;
      if (!oldValue) return `logged ${logged(newValue, newLabel)}`;
      if (!newValue) return `deleted time logged: ${logged(oldValue, oldLabel)}`;
      return `changed time logged from ${logged(oldValue, oldLabel)} to ${logged(newValue, newLabel)}`;
    }
    case 'submitted':
      // Issue 40: the label is the whole line ('Submitted via Bug reports'); the value the requester's email.
      return newValue ? `${newLabel ?? ''} by ${newValue}` : (newLabel ?? '');
  }
}
