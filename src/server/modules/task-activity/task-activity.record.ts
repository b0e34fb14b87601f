import type { TaskDto } from '../../../domain/schemas/task';
import { type TaskActivityState, type TaskFieldChange, taskFieldChanges } from '../../../domain/task-activity';
import type { DbOrTx } from '../../db/client';
import { insertActivity, insertStatusMoves, taskTitles } from './task-activity.repo';

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
  return insertActivity(db, after.id, actorId, changes);
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
 * A dependency added or removed (issue 37): an entry on each task, 'blocked_by' on the blocked one and 'blocking' on the
 * blocker, the other task's id as the new value (added) or the old one (removed) and its title at the time as the label.
 */
export async function recordDependencyChange(
  db: DbOrTx,
  actorId: string,
  dependency: { task: { id: string; title: string }; blocker: { id: string; title: string } },
  added: boolean,
): Promise<void> {
  const entry = (field: 'blocked_by' | 'blocking', other: { id: string; title: string }): TaskFieldChange =>
    added
      ? { field, oldValue: null, newValue: other.id, oldLabel: null, newLabel: other.title }
      : { field, oldValue: other.id, newValue: null, oldLabel: other.title, newLabel: null };
  await insertActivity(db, dependency.task.id, actorId, [entry('blocked_by', dependency.blocker)]);
  await insertActivity(db, dependency.blocker.id, actorId, [entry('blocking', dependency.task)]);
}
