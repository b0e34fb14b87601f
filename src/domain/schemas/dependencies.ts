/**
 * The dependencies and sub-task order API of issue 37 (decision 0025). The rules are in domain/dependencies.ts and
 * domain/hierarchy.ts; the error table is in ../task-structure-errors.ts, not here (errors.ts, in the client's start-up
 * script, takes it; an import of this file from there would tie the start-up script to the schemas chunk in a circle).
 *
 * The task's own fields (`parentId`, `startDate`, `subtaskCounts`, `blockedCount`) are not here: they join the task's
 * input and DTO together with the server that reads them, so the API never accepts a field it ignores.
 */
import { z } from 'zod';
import { SUBTASK_LIMITS } from '../constants';
import { uuid } from './common';
import { statusCategory, statusKey } from './workflow';

/** `POST /api/tasks/:id/dependencies`: the task the path names becomes blocked by `blockedBy`. */
export const addDependencyInput = z.object({ blockedBy: uuid }).strict();
export type AddDependencyInput = z.infer<typeof addDependencyInput>;

/** `DELETE /api/tasks/:id/dependencies/:otherId`: `otherId` is the blocker. */
export const dependencyParams = z.object({ id: uuid, otherId: uuid });
export type DependencyParams = z.infer<typeof dependencyParams>;

/** A task on the other end of a dependency that the caller can see. */
export const visibleDependencyRef = z.object({
  id: uuid,
  title: z.string(),
  /** The key of one of its project's statuses. */
  status: statusKey,
  /** What 'Blocked' reads: any blocker not in the completed category (a canceled one still blocks). */
  statusCategory,
  projectId: uuid,
});

/**
 * A task outside the caller's reach (another team's project, a team they left, a project moved away): no title and no
 * id, since an id would let the caller probe. Shown as 'A task in another project' (dependencies.ts DEPENDENCY_TEXT).
 */
export const hiddenDependencyRef = z.object({ id: z.null(), hidden: z.literal(true) });

export const dependencyRef = z.union([visibleDependencyRef, hiddenDependencyRef]);
export type DependencyRef = z.infer<typeof dependencyRef>;

/** `GET /api/tasks/:id/dependencies`: the tasks blocking this one, and the tasks it blocks. */
export const dependencyListDto = z.object({
  blockedBy: z.array(dependencyRef),
  blocking: z.array(dependencyRef),
});
export type DependencyListDto = z.infer<typeof dependencyListDto>;

/** `PUT /api/tasks/:id/subtasks/order`: every sub-task id of the parent, once each, in their new order. */
export const subtaskOrderInput = z.object({ ids: z.array(uuid).min(1).max(SUBTASK_LIMITS.orderMax) }).strict();
export type SubtaskOrderInput = z.infer<typeof subtaskOrderInput>;
