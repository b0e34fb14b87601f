import { describe, expect, it } from 'vitest';
import { SUBTASK_LIMITS } from './constants';
import { ERRORS, errorStatus } from './errors';
import {
  chainLength,
  checkParent,
  countSubtasks,
  HIERARCHY_RULE_REASONS,
  type HierarchyTask,
  openSubtaskCount,
  subtaskProgress,
} from './hierarchy';
import { TASK_STRUCTURE_ERRORS } from './task-structure-errors';
import type { StatusCategory } from './workflow';

const P = 'project-1';
const task = (id: string, projectId = P): HierarchyTask => ({ id, projectId });

describe('checkParent', () => {
  it('makes a task top level with a null parent, whatever else is given', () => {
    expect(checkParent({ task: task('a'), parent: null, parentAncestorIds: [], subtreeHeight: 5 })).toEqual({
      ok: true,
      value: null,
    });
  });

  it('accepts a parent in the same project, for a new task and for an existing one', () => {
    expect(checkParent({ task: { projectId: P }, parent: task('p'), parentAncestorIds: [], subtreeHeight: 1 })).toEqual({
      ok: true,
      value: 'p',
    });
    expect(checkParent({ task: task('a'), parent: task('p'), parentAncestorIds: ['g'], subtreeHeight: 2 })).toEqual({
      ok: true,
      value: 'p',
    });
  });

  it('refuses the task itself as its parent', () => {
    expect(checkParent({ task: task('a'), parent: task('a'), parentAncestorIds: [], subtreeHeight: 1 })).toEqual({
      ok: false,
      reason: 'subtask_cycle',
    });
  });

  it('refuses one of its own descendants as its parent (a cycle), at any depth', () => {
    // a → b → c: making c (or b) a's parent closes a loop.
    expect(checkParent({ task: task('a'), parent: task('c'), parentAncestorIds: ['b', 'a'], subtreeHeight: 3 })).toEqual({
      ok: false,
      reason: 'subtask_cycle',
    });
    expect(checkParent({ task: task('a'), parent: task('b'), parentAncestorIds: ['a'], subtreeHeight: 3 })).toEqual({
      ok: false,
      reason: 'subtask_cycle',
    });
  });

  it('refuses a parent in another project', () => {
    expect(checkParent({ task: task('a'), parent: task('p', 'project-2'), parentAncestorIds: [], subtreeHeight: 1 })).toEqual({
      ok: false,
      reason: 'subtask_other_project',
    });
    expect(
      checkParent({ task: { projectId: P }, parent: task('p', 'project-2'), parentAncestorIds: [], subtreeHeight: 1 }),
    ).toEqual({ ok: false, reason: 'subtask_other_project' });
  });

  it('accepts a chain of exactly 5 tasks counting the top one, and refuses 6', () => {
    expect(SUBTASK_LIMITS.maxDepth).toBe(5);
    // A leaf under a parent that is 4th in its chain: t1 → t2 → t3 → p(4th) → new (5th).
    expect(
      checkParent({ task: { projectId: P }, parent: task('p'), parentAncestorIds: ['t3', 't2', 't1'], subtreeHeight: 1 }),
    ).toEqual({ ok: true, value: 'p' });
    // Under a 5th task, a 6th: refused.
    expect(
      checkParent({ task: { projectId: P }, parent: task('p'), parentAncestorIds: ['t4', 't3', 't2', 't1'], subtreeHeight: 1 }),
    ).toEqual({ ok: false, reason: 'subtask_too_deep' });
  });

  it('counts the moving task’s own sub-tasks in the chain', () => {
    // A top-level parent (1) and a task with a subtree 4 tall: 5 in all.
    expect(checkParent({ task: task('a'), parent: task('p'), parentAncestorIds: [], subtreeHeight: 4 })).toEqual({
      ok: true,
      value: 'p',
    });
    // The same task under a parent that has a parent of its own: 6.
    expect(checkParent({ task: task('a'), parent: task('p'), parentAncestorIds: ['g'], subtreeHeight: 4 })).toEqual({
      ok: false,
      reason: 'subtask_too_deep',
    });
    // A top-level task with a subtree 5 tall can never become a sub-task.
    expect(checkParent({ task: task('a'), parent: task('p'), parentAncestorIds: [], subtreeHeight: 5 })).toEqual({
      ok: false,
      reason: 'subtask_too_deep',
    });
  });

  it('reads the chain length as the parent’s chain plus the subtree, a subtree being at least the task itself', () => {
    expect(chainLength(0, 1)).toBe(2);
    expect(chainLength(3, 1)).toBe(5);
    expect(chainLength(0, 0)).toBe(2);
    expect(chainLength(2, 3)).toBe(6);
  });

  it('has a 400 with a message for every reason, and a 404 for a parent not found', () => {
    for (const reason of HIERARCHY_RULE_REASONS) {
      expect(errorStatus(reason)).toBe(400);
      expect(ERRORS[reason].message).toBe(TASK_STRUCTURE_ERRORS[reason].message);
    }
    expect(errorStatus('subtask_parent_not_found')).toBe(404);
    expect(ERRORS.subtask_too_deep.message).toBe('Sub-tasks can be nested at most 5 tasks deep, counting the top task');
  });
});

describe('sub-task progress', () => {
  it("counts the completed category as done and leaves canceled out of the total ('n/m')", () => {
    const categories: StatusCategory[] = ['completed', 'started', 'completed', 'canceled', 'backlog', 'unstarted'];
    const counts = countSubtasks(categories);
    expect(counts).toEqual({ done: 2, total: 5 });
    expect(subtaskProgress(counts)).toBe('2/5');
    expect(openSubtaskCount(counts)).toBe(3);
  });

  it('gives the e2e’s 2/3 after completing two of three', () => {
    expect(subtaskProgress(countSubtasks(['completed', 'completed', 'started']))).toBe('2/3');
  });

  it('reads no sub-tasks, and only canceled ones, as 0/0 with nothing open', () => {
    expect(countSubtasks([])).toEqual({ done: 0, total: 0 });
    expect(countSubtasks(['canceled', 'canceled'])).toEqual({ done: 0, total: 0 });
    expect(subtaskProgress({ done: 0, total: 0 })).toBe('0/0');
    expect(openSubtaskCount({ done: 0, total: 0 })).toBe(0);
  });

  it('says all done when every counted sub-task is completed', () => {
    const counts = countSubtasks(['completed', 'canceled', 'completed']);
    expect(subtaskProgress(counts)).toBe('2/2');
    expect(openSubtaskCount(counts)).toBe(0);
  });

  it('takes any iterable of categories (a Set, a generator)', () => {
    function* categories(): Generator<StatusCategory> {
      yield 'completed';
      yield 'unstarted';
    }
    expect(countSubtasks(categories())).toEqual({ done: 1, total: 2 });
  });
});
