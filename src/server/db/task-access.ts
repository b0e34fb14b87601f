import { eq } from 'drizzle-orm';
import type { TeamRole } from '../../domain/constants';
import { AppError } from '../lib/errors';
import type { DbOrTx } from './client';
import { projects, tasks } from './schema';
import { activeRole } from './visibility';

/**
 * How a write under a task (comment, file, checklist item) holds the task row until its transaction ends, so the
 * task is not deleted or moved to another team under it, and writers to one task queue. `no key update` is the lock
 * the counters' triggers (migration 0006) take on the same row anyway, so writers queue once instead of deadlocking
 * on an upgrade.
 */
export type TaskLock = 'update' | 'no key update';

/** The lock a write under a task takes on the task row (see TaskLock). */
export const TASK_WRITE_LOCK = 'no key update' satisfies TaskLock;

/** A task's project (every task has one): join `projects` on it for the task's team. */
export const taskProject = eq(projects.id, tasks.projectId);

const accessColumns = (userId: string) => ({
  id: tasks.id,
  title: tasks.title,
  projectId: tasks.projectId,
  creatorId: tasks.creatorId,
  assigneeId: tasks.assigneeId,
  teamId: projects.teamId,
  callerRole: activeRole(projects.teamId, userId),
  /** Kept by the triggers (migration 0006); read, never written. */
  attachmentCount: tasks.attachmentCount,
  checklistTotal: tasks.checklistTotal,
});

/**
 * The task, its team and the caller's active role there (null: not a member, so the task is not theirs to see), or
 * undefined when there is no such task; with `lock`, the task row is locked for the rest of the transaction.
 */
export async function getTaskAccess(db: DbOrTx, taskId: string, userId: string, lock?: TaskLock) {
  const query = db.select(accessColumns(userId)).from(tasks).innerJoin(projects, taskProject).where(eq(tasks.id, taskId));
  const [row] = lock ? await query.for(lock, { of: tasks }) : await query;
  return row;
}

export type TaskAccess = NonNullable<Awaited<ReturnType<typeof getTaskAccess>>> & { callerRole: TeamRole };

/** As getTaskAccess, but 404 `task_not_found` unless the task exists and the caller is an active member of its team. */
export async function requireVisibleTask(db: DbOrTx, taskId: string, userId: string, lock?: TaskLock): Promise<TaskAccess> {
  const access = await getTaskAccess(db, taskId, userId, lock);
  if (!access?.callerRole) throw new AppError('task_not_found');
  return { ...access, callerRole: access.callerRole };
}
