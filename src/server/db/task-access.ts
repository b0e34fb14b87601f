import { eq } from 'drizzle-orm';
import type { TeamRole } from '../../domain/constants';
import type { ErrorReason } from '../../domain/errors';
import { canCommentOnTask, canContribute, canEditTask, type MemberRole } from '../../domain/permissions';
import { AppError } from '../lib/errors';
import type { DbOrTx } from './client';
import { projects, tasks, teams } from './schema';
import { activeRole, seesProject } from './visibility';

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
  /** A guest sees only the projects they were added to (decision 0031); everyone else every project of their teams. */
  callerSees: seesProject(projects.teamId, projects.id, userId),
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
  if (!access?.callerRole || !access.callerSees) throw new AppError('task_not_found');
  return { ...access, callerRole: access.callerRole };
}

/** Why a member may not change a task (issue 41): a viewer changes nothing, a guest only the tasks assigned to them. */
const taskEditDenial = (role: MemberRole): ErrorReason => (role === 'guest' ? 'task_edit_denied' : 'read_only_role');

/**
 * 403 unless the caller may change the task (domain `canEditTask`): `read_only_role` for a viewer, `task_edit_denied`
 * for a guest on a task not assigned to them.
 */
export function requireTaskEdit(task: { callerRole: TeamRole; assigneeId: string | null }, userId: string): void {
  if (!canEditTask(task.callerRole, userId, task)) throw new AppError(taskEditDenial(task.callerRole));
}

/** 403 `read_only_role` (or `task_edit_denied` for a guest) unless the caller's role changes the team's work in general. */
export function requireWriterRole(role: MemberRole): void {
  if (!canContribute(role)) throw new AppError(taskEditDenial(role));
}

/** requireVisibleTask, then requireTaskEdit: a write to the task or under it (checklist, time, files, dependencies). */
export async function requireEditableTask(db: DbOrTx, taskId: string, userId: string, lock?: TaskLock): Promise<TaskAccess> {
  const access = await requireVisibleTask(db, taskId, userId, lock);
  requireTaskEdit(access, userId);
  return access;
}

/**
 * requireVisibleTask, then the comment rule (domain `canCommentOnTask`): a viewer comments when the team lets viewers
 * comment (403 `comment_denied` otherwise), a guest on the tasks assigned to them (403 `task_edit_denied`).
 */
export async function requireCommentableTask(db: DbOrTx, taskId: string, userId: string, lock?: TaskLock): Promise<TaskAccess> {
  const access = await requireVisibleTask(db, taskId, userId, lock);
  if (canEditTask(access.callerRole, userId, access)) return access;
  const [team] = await db.select({ viewersMayComment: teams.viewersMayComment }).from(teams).where(eq(teams.id, access.teamId));
  if (team && canCommentOnTask(access.callerRole, userId, access, team)) return access;
  throw new AppError(access.callerRole === 'viewer' ? 'comment_denied' : taskEditDenial(access.callerRole));
}
