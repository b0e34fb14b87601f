import { actorUserId } from '../../domain/changes';
import {
  recordDependencyChange,
  recordStatusMoves,
  recordSubmitted,
  recordTaskEdit,
  recordTimeEntryChange,
} from '../modules/task-activity';
import { inTransaction } from './reactions';

/** The task page's activity history: an entry per changed field of an edit (or per task a status delete moved), written with it. */
export const activitySubscriber = inTransaction('activity', {
  // A task from a form or by mail (issue 40): 'Submitted via …' starts its history; any other creation writes nothing.
  'task.created': async (c, actor, tx) => {
    if (c.submitted) await recordSubmitted(tx, actorUserId(actor), c.task.id, c.submitted);
  },
  'task.updated': async (c, actor, tx) => {
    const actorId = actorUserId(actor);
    if (actorId) await recordTaskEdit(tx, actorId, c.before, c.after);
  },
  // A dependency: an entry on both tasks.
  'task.dependency_added': async (c, actor, tx) => {
    const actorId = actorUserId(actor);
    if (actorId) await recordDependencyChange(tx, actorId, c, true);
  },
  'task.dependency_removed': async (c, actor, tx) => {
    const actorId = actorUserId(actor);
    if (actorId) await recordDependencyChange(tx, actorId, c, false);
  },
  // A time entry (issue 39): an entry on its task, logged, changed (its day or minutes) or deleted.
  'time_entry.created': async (c, actor, tx) => {
    const actorId = actorUserId(actor);
    if (actorId) await recordTimeEntryChange(tx, actorId, c.task.id, null, c.entry);
  },
  'time_entry.updated': async (c, actor, tx) => {
    const actorId = actorUserId(actor);
    if (actorId) await recordTimeEntryChange(tx, actorId, c.task.id, c.before, c.after);
  },
  'time_entry.deleted': async (c, actor, tx) => {
    const actorId = actorUserId(actor);
    if (actorId) await recordTimeEntryChange(tx, actorId, c.task.id, c.entry, null);
  },
  // A deleted status's tasks, moved in its transaction: each gets the status entry a move of its own would write.
  'status.deleted': async (c, actor, tx) => {
    const actorId = actorUserId(actor);
    if (actorId && c.movedTo) await recordStatusMoves(tx, actorId, c.movedTaskIds, { from: c.status.key, to: c.movedTo.key });
  },
});
