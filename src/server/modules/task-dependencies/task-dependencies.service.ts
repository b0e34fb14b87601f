import type { DependencySide, PersonActor } from '../../../domain/changes';
import { checkNewDependency } from '../../../domain/dependencies';
import { ERROR_MESSAGES } from '../../../domain/errors';
import type { DependencyListDto, DependencyRef } from '../../../domain/schemas/dependencies';
import { dependencyCycleMessage } from '../../../domain/task-structure-errors';
import type { Db, DbOrTx } from '../../db/client';
import { requireEditableTask, requireVisibleTask, TASK_WRITE_LOCK, type TaskAccess } from '../../db/task-access';
import type { ChangeRecorder } from '../../lib/changes';
import { AppError } from '../../lib/errors';
import * as repo from './task-dependencies.repo';

/** A task the caller may not see: no id, no title (an id would let them probe). */
const HIDDEN: DependencyRef = { id: null, hidden: true };

function toListDto(rows: readonly repo.RefRow[]): DependencyListDto {
  const list: DependencyListDto = { blockedBy: [], blocking: [] };
  for (const r of rows) {
    list[r.side].push(
      r.visible
        ? { id: r.id, title: r.title, status: r.status, statusCategory: r.statusCategory, projectId: r.projectId }
        : HIDDEN,
    );
  }
  return list;
}

const sideOf = (t: { id: string; title: string; projectId: string; teamId: string }): DependencySide => ({
  id: t.id,
  title: t.title,
  projectId: t.projectId,
  teamId: t.teamId,
});

/** The blocker named by the body is not the caller's to see (or not of the task's team): 404, as a stranger's task. */
const blockerNotFound = () => new AppError('task_not_found', { fields: { blockedBy: ERROR_MESSAGES.task_not_found } });

/**
 * The single task read's `blockedBy` and `blocking` ids: only the tasks the caller may see (the dependencies route
 * says how many others there are). Call it beside the task's own visibility check, and drop it when that fails.
 */
export const visibleDependencyIds = (db: DbOrTx, taskId: string, userId: string) => repo.visibleIds(db, taskId, userId);

/**
 * Dependencies between tasks (issue 37, decision 0025): "a task is blocked by another" of any project of its team, never
 * in a cycle. Reading them takes reading the task; adding or removing one takes editing it (any member of its team).
 */
export class TaskDependenciesService {
  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRecorder,
  ) {}

  /** Both lists of the task's page; a task the caller may not see is a hidden ref. 404 when the task is not theirs. */
  async list(userId: string, taskId: string): Promise<DependencyListDto> {
    // The check runs beside the read; when it fails, the rows are dropped.
    const [, rows] = await Promise.all([requireVisibleTask(this.db, taskId, userId), repo.listRefs(this.db, taskId, userId)]);
    return toListDto(rows);
  }

  /**
   * "`taskId` is blocked by `blockerId`": the blocker must be a task of the same team the caller sees (404 otherwise),
   * not the task itself (400), not already a blocker (409), and must close no cycle (400 `dependency_cycle` naming the
   * cycle's tasks). Under the team's lock, so two additions cannot close a cycle together; the blocker's row is held
   * (share) before the task's, the order the counting trigger of migration 0013 takes them in.
   */
  async add(actor: PersonActor, taskId: string, blockerId: string): Promise<DependencyListDto> {
    const { userId } = actor;
    const blockedBy = blockerId.toLowerCase();
    return this.changes.run(this.db, actor, async (tx, record) => {
      // Rights: editing the task (403 for a viewer, and for a guest on a task not assigned to them: issue 41).
      const seen = await requireEditableTask(tx, taskId, userId);
      if (seen.id === blockedBy) {
        throw new AppError('dependency_self', { fields: { blockedBy: ERROR_MESSAGES.dependency_self } });
      }
      await repo.lockTeamDependencies(tx, seen.teamId);
      const blocker = await repo.getSide(tx, blockedBy, userId, 'share');
      const task = await requireEditableTask(tx, taskId, userId, TASK_WRITE_LOCK);
      // Its project moved to another team meanwhile: that team's additions are the ones to wait for.
      if (task.teamId !== seen.teamId) await repo.lockTeamDependencies(tx, task.teamId);
      if (!blocker?.callerRole || blocker.teamId !== task.teamId) throw blockerNotFound();

      const edges = await repo.edgesFor(tx, task.id, blocker.id);
      const result = checkNewDependency(task, blocker, edges);
      if (!result.ok) {
        if (result.reason === 'dependency_cycle') {
          const titles = await repo.titlesFor(tx, result.cycle, userId);
          const message = dependencyCycleMessage(result.cycle.map((id) => titles.get(id) ?? null));
          throw new AppError('dependency_cycle', { fields: { blockedBy: message } });
        }
        throw new AppError(result.reason, { fields: { blockedBy: ERROR_MESSAGES[result.reason] } });
      }
      if (!(await repo.insertOne(tx, task.id, blocker.id, userId))) {
        throw new AppError('dependency_exists', { fields: { blockedBy: ERROR_MESSAGES.dependency_exists } });
      }
      await record({ kind: 'task.dependency_added', teamId: task.teamId, task: sideOf(task), blocker: sideOf(blocker) });
      return toListDto(await repo.listRefs(tx, task.id, userId));
    });
  }

  /**
   * Removes "`taskId` is blocked by `blockerId`" (rights: editing the task). The blocker need not be visible: a
   * dependency on a task whose project moved to another team can still be removed by whoever knows its id; the answer
   * says no more than the hidden ref did (that there is one).
   */
  async remove(actor: PersonActor, taskId: string, blockerId: string): Promise<void> {
    const { userId } = actor;
    await this.changes.run(this.db, actor, async (tx, record) => {
      const blocker = await repo.getSide(tx, blockerId.toLowerCase(), userId, 'share');
      const task: TaskAccess = await requireEditableTask(tx, taskId, userId, TASK_WRITE_LOCK);
      if (!blocker || !(await repo.deleteOne(tx, task.id, blocker.id))) {
        throw new AppError('dependency_not_found');
      }
      await record({ kind: 'task.dependency_removed', teamId: task.teamId, task: sideOf(task), blocker: sideOf(blocker) });
    });
  }
}
