import { actorUserId } from '../../domain/changes';
import { recordTaskEdit } from '../modules/task-activity';
import { inTransaction } from './reactions';

/** The task page's activity history: an entry per changed field of an edit, written with it. */
export const activitySubscriber = inTransaction('activity', {
  'task.updated': async (c, actor, tx) => {
    const actorId = actorUserId(actor);
    if (actorId) await recordTaskEdit(tx, actorId, c.before, c.after);
  },
});
