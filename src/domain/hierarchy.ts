/**
 * Sub-tasks (issue 37, decision 0025): any task may have sub-tasks, full tasks with a `parentId` in the same project,
 * in chains of at most SUBTASK_LIMITS.maxDepth tasks counting the top one, never in a cycle. A parent's 'n/m' counts
 * its sub-tasks by category: done is the completed category, the total leaves out canceled ones (the rule of project
 * progress, workflow.ts `progressOf`). The database keeps the two counts on the parent's row by trigger; the service and
 * the tests count with `countSubtasks` to agree with it.
 *
 * Validation returns a typed result whose `reason` is one of HIERARCHY_RULE_REASONS; their codes and texts are the
 * table TASK_STRUCTURE_ERRORS in task-structure-errors.ts.
 */
import { SUBTASK_LIMITS } from './constants';
import type { StatusCategory } from './workflow';

/** Every way the parent rule refuses (codes and texts: TASK_STRUCTURE_ERRORS in task-structure-errors.ts). */
export const HIERARCHY_RULE_REASONS = ['subtask_cycle', 'subtask_too_deep', 'subtask_other_project'] as const;
export type HierarchyRuleReason = (typeof HIERARCHY_RULE_REASONS)[number];

export type HierarchyResult<T> = { ok: true; value: T } | { ok: false; reason: HierarchyRuleReason };
const ok = <T>(value: T): HierarchyResult<T> => ({ ok: true, value });
const fail = <T = never>(reason: HierarchyRuleReason): HierarchyResult<T> => ({ ok: false, reason });

/** What the parent rule reads of a task. */
export interface HierarchyTask {
  id: string;
  projectId: string;
}

export interface ParentChange {
  /** The task getting the parent; without an id, a task being created (it has no sub-tasks and no descendants yet). */
  task: { id?: string; projectId: string };
  /** The parent it would have; null makes it a top-level task. A parent the caller may not see is the service's 404. */
  parent: HierarchyTask | null;
  /** The parent's ancestors, from its own parent up to the top task (empty for a top-level parent). */
  parentAncestorIds: readonly string[];
  /** Tasks in the longest chain from the moving task down, counting itself: 1 for a task without sub-tasks. */
  subtreeHeight: number;
}

/**
 * Whether `task` may become a sub-task of `parent`: the same project, not itself, not one of its own descendants (a
 * cycle), and the chain it ends up in holds at most SUBTASK_LIMITS.maxDepth tasks counting the top one, the moving
 * task's own sub-tasks included. Returns the parent's id (null: top level).
 */
export function checkParent({ task, parent, parentAncestorIds, subtreeHeight }: ParentChange): HierarchyResult<string | null> {
  if (parent === null) return ok(null);
  if (task.id !== undefined && (parent.id === task.id || parentAncestorIds.includes(task.id))) return fail('subtask_cycle');
  if (parent.projectId !== task.projectId) return fail('subtask_other_project');
  if (chainLength(parentAncestorIds.length, subtreeHeight) > SUBTASK_LIMITS.maxDepth) return fail('subtask_too_deep');
  return ok(parent.id);
}

/** Tasks in the longest chain once the task is under the parent: the parent's own chain, then the task's subtree. */
export const chainLength = (parentAncestorCount: number, subtreeHeight: number): number =>
  parentAncestorCount + 1 + Math.max(1, subtreeHeight);

// ---------------------------------------------------------------------------------------------------------------
// Progress

export interface SubtaskCounts {
  /** Sub-tasks in the completed category. */
  done: number;
  /** All sub-tasks but canceled ones. */
  total: number;
}

/** A parent's counts from its sub-tasks' categories (the rule the database's trigger applies). */
export function countSubtasks(categories: Iterable<StatusCategory>): SubtaskCounts {
  let done = 0;
  let total = 0;
  for (const category of categories) {
    if (category === 'canceled') continue;
    total++;
    if (category === 'completed') done++;
  }
  return { done, total };
}

/** The card's and the task page's progress text: 'done/total', e.g. '2/3'. */
export const subtaskProgress = ({ done, total }: SubtaskCounts): string => `${done}/${total}`;

/** Sub-tasks neither completed nor canceled: completing the parent asks whether to complete these too. */
export const openSubtaskCount = ({ done, total }: SubtaskCounts): number => total - done;
