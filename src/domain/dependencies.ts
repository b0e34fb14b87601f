/**
 * Dependencies between tasks (issue 37, decision 0025): a task can be blocked by tasks of any project of its team, never
 * in a cycle. A task is blocked while any of its blockers is not in the completed category (a canceled blocker still
 * blocks until the dependency is removed); the database keeps that count on the task's row (`open_blocker_count`), and
 * `openBlockerCount` here is the same rule for the service and the tests.
 *
 * Validation returns a typed result whose `reason` is one of DEPENDENCY_RULE_REASONS; their codes and texts are the
 * table TASK_STRUCTURE_ERRORS in task-structure-errors.ts (the cycle's text: `dependencyCycleMessage` there).
 */
import type { StatusCategory } from './workflow';

/** Every way the dependency rule refuses (codes and texts: TASK_STRUCTURE_ERRORS in task-structure-errors.ts). */
export const DEPENDENCY_RULE_REASONS = [
  'dependency_self',
  'dependency_other_team',
  'dependency_exists',
  'dependency_cycle',
] as const;
export type DependencyRuleReason = (typeof DEPENDENCY_RULE_REASONS)[number];

/** A refused cycle carries the ids of the tasks in it (findDependencyCycle), for the message naming their titles. */
export type DependencyResult =
  | { ok: true; value: null }
  | { ok: false; reason: 'dependency_cycle'; cycle: string[] }
  | { ok: false; reason: Exclude<DependencyRuleReason, 'dependency_cycle'> };

/** One row of `task_dependencies`: `taskId` is blocked by `blockedById`. */
export interface DependencyEdge {
  taskId: string;
  blockedById: string;
}

/** The words of the dependency sections and the card (the texts). */
export const DEPENDENCY_TEXT = {
  blocked: 'Blocked',
  blockedBy: 'Blocked by',
  blocking: 'Blocking',
  addDependency: 'Add dependency',
  /** What stands for a task the reader may not see, in the API's answers and on the page: no title, no id. */
  hiddenTask: 'A task in another project',
} as const;

/**
 * What a history entry of a dependency ('blocked_by', 'blocking') holds in place of the other task's id when the reader
 * may not see that task now (its label is left out too): the client says DEPENDENCY_TEXT.hiddenTask.
 */
export const HIDDEN_TASK_VALUE = 'hidden';

/**
 * The cycle that adding "`task` is blocked by `blocker`" would close, or null. The cycle is the ids in order, each
 * blocked by the next and the last blocked by the first: `[task, blocker, …]`, the shortest such path (breadth first
 * over the existing blocked-by edges from `blocker`, neighbours in id order, so the same graph always gives the same
 * path). `[task]` when the two are the same task. A diamond (two paths to one blocker) is no cycle.
 */
export function findDependencyCycle(edges: readonly DependencyEdge[], task: string, blocker: string): string[] | null {
  if (task === blocker) return [task];
  const blockersOf = new Map<string, string[]>();
  for (const { taskId, blockedById } of edges) {
    const list = blockersOf.get(taskId);
    if (list) list.push(blockedById);
    else blockersOf.set(taskId, [blockedById]);
  }
  for (const list of blockersOf.values()) list.sort();

  // Each task reached remembers the one it was reached from; the walk stops when it reaches `task` again.
  const cameFrom = new Map<string, string | null>([[blocker, null]]);
  const queue = [blocker];
  for (let head = 0; head < queue.length; head++) {
    const current = queue[head]!;
    for (const next of blockersOf.get(current) ?? []) {
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, current);
      if (next === task) return [task, ...pathTo(cameFrom, current)];
      queue.push(next);
    }
  }
  return null;
}

/** The path from the walk's start to `id`, following `cameFrom` back. */
function pathTo(cameFrom: ReadonlyMap<string, string | null>, id: string): string[] {
  const path: string[] = [];
  for (let at: string | null | undefined = id; at != null; at = cameFrom.get(at)) path.push(at);
  return path.reverse();
}

/**
 * Whether `task` may be blocked by `blocker`: not itself, the same team, not already, and no cycle. `edges` are the
 * existing dependencies reachable from the blocker (the service reads them under the team's lock) plus the task's own
 * blockers (for `dependency_exists`; the primary key backstops it).
 */
export function checkNewDependency(
  task: { id: string; teamId: string },
  blocker: { id: string; teamId: string },
  edges: readonly DependencyEdge[],
): DependencyResult {
  if (task.id === blocker.id) return { ok: false, reason: 'dependency_self' };
  if (task.teamId !== blocker.teamId) return { ok: false, reason: 'dependency_other_team' };
  if (edges.some((e) => e.taskId === task.id && e.blockedById === blocker.id)) return { ok: false, reason: 'dependency_exists' };
  const cycle = findDependencyCycle(edges, task.id, blocker.id);
  return cycle ? { ok: false, reason: 'dependency_cycle', cycle } : { ok: true, value: null };
}

// ---------------------------------------------------------------------------------------------------------------
// Blocked

/** Blockers not in the completed category (a canceled blocker counts: it blocks until the dependency is removed). */
export function openBlockerCount(blockerCategories: Iterable<StatusCategory>): number {
  let open = 0;
  for (const category of blockerCategories) if (category !== 'completed') open++;
  return open;
}

/** A task is blocked while any of its blockers is not completed. */
export const isBlocked = (blockerCategories: Iterable<StatusCategory>): boolean => openBlockerCount(blockerCategories) > 0;

/**
 * The toast after moving a blocked task into a started status (the move is allowed): the 'This task is blocked
 * by N open tasks', and 'open task' for one. Null when nothing blocks it.
 */
export function blockedToastText(openBlockers: number): string | null {
  if (openBlockers <= 0) return null;
  return `This task is blocked by ${openBlockers} open ${openBlockers === 1 ? 'task' : 'tasks'}`;
}

/**
 * A history entry of a dependency ('blocked_by', 'blocking') whose other task `isHidden` says the reader may not see:
 * HIDDEN_TASK_VALUE in place of its id, and no title. Any other entry as it is. The history read and the team export
 * both show an entry through this.
 */
export function hideDependencyEntry<R extends { field: string; oldValue: string | null; newValue: string | null }>(
  row: R,
  isHidden: (taskId: string) => boolean,
): R {
  if (row.field !== 'blocked_by' && row.field !== 'blocking') return row;
  const other = row.newValue ?? row.oldValue;
  if (other === null || !isHidden(other)) return row;
  const value = (v: string | null) => (v === null ? null : HIDDEN_TASK_VALUE);
  return { ...row, oldValue: value(row.oldValue), newValue: value(row.newValue), oldLabel: null, newLabel: null };
}
