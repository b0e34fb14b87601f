import { describe, expect, it } from 'vitest';
import {
  hideDependencyEntry,
  HIDDEN_TASK_VALUE,
  blockedToastText,
  checkNewDependency,
  DEPENDENCY_RULE_REASONS,
  DEPENDENCY_TEXT,
  type DependencyEdge,
  findDependencyCycle,
  isBlocked,
  openBlockerCount,
} from './dependencies';
import { ERRORS, errorBody, errorStatus } from './errors';
import {
  addDependencyInput,
  dependencyListDto,
  dependencyParams,
  dependencyRef,
  subtaskOrderInput,
} from './schemas/dependencies';
import { dependencyCycleMessage, TASK_STRUCTURE_ERRORS } from './task-structure-errors';

/** `a` blocked by `b` is written 'a<b'. */
const edges = (...pairs: string[]): DependencyEdge[] =>
  pairs.map((p) => {
    const [taskId, blockedById] = p.split('<') as [string, string];
    return { taskId, blockedById };
  });

describe('findDependencyCycle', () => {
  it('finds nothing in an empty graph', () => {
    expect(findDependencyCycle([], 'a', 'b')).toBeNull();
  });

  it('returns the path a 3-cycle would close: the task, its new blocker, and on back to the task', () => {
    // b is blocked by c, c by a: "a blocked by b" closes a → b → c → a.
    expect(findDependencyCycle(edges('b<c', 'c<a'), 'a', 'b')).toEqual(['a', 'b', 'c']);
  });

  it('returns a 2-cycle', () => {
    expect(findDependencyCycle(edges('b<a'), 'a', 'b')).toEqual(['a', 'b']);
  });

  it('returns [task] for a self-dependency', () => {
    expect(findDependencyCycle([], 'a', 'a')).toEqual(['a']);
  });

  it('does not take a diamond for a cycle', () => {
    // d is blocked by b and c, both blocked by a: a second path to a is no loop.
    const diamond = edges('d<b', 'd<c', 'b<a', 'c<a');
    expect(findDependencyCycle(diamond, 'd', 'a')).toBeNull();
    expect(findDependencyCycle(diamond.slice(1), 'd', 'b')).toBeNull();
    // Closing it the other way is a cycle, along the first path in id order.
    expect(findDependencyCycle(diamond, 'a', 'd')).toEqual(['a', 'd', 'b']);
  });

  it('ignores edges that do not lead back, and chains that lead elsewhere', () => {
    expect(findDependencyCycle(edges('b<c', 'c<d', 'x<a', 'a<y'), 'a', 'b')).toBeNull();
  });

  it('gives the shortest cycle, and the same path whatever order the edges come in', () => {
    // From b: b → e → a (short) and b → c → d → a (long).
    const graph = edges('b<c', 'c<d', 'd<a', 'b<e', 'e<a');
    expect(findDependencyCycle(graph, 'a', 'b')).toEqual(['a', 'b', 'e']);
    expect(findDependencyCycle([...graph].reverse(), 'a', 'b')).toEqual(['a', 'b', 'e']);
    // Two paths of one length: the neighbour first in id order.
    const tie = edges('b<z', 'b<y', 'z<a', 'y<a');
    expect(findDependencyCycle(tie, 'a', 'b')).toEqual(['a', 'b', 'y']);
    expect(findDependencyCycle([...tie].reverse(), 'a', 'b')).toEqual(['a', 'b', 'y']);
  });

  it('walks a graph that already holds cycles elsewhere without looping', () => {
    expect(findDependencyCycle(edges('b<c', 'c<b', 'c<d'), 'a', 'b')).toBeNull();
  });

  it('finds a long cycle through a long chain', () => {
    const ids = Array.from({ length: 500 }, (_, i) => `t${String(i).padStart(3, '0')}`);
    const chain = ids.slice(1).map((id, i) => ({ taskId: ids[i]!, blockedById: id }));
    // t000 ← t001 ← … ← t499: "t499 blocked by t000" closes the whole chain.
    const cycle = findDependencyCycle(chain, 't499', 't000');
    expect(cycle).toHaveLength(500);
    expect(cycle?.slice(0, 3)).toEqual(['t499', 't000', 't001']);
    expect(cycle?.at(-1)).toBe('t498');
  });
});

describe('checkNewDependency', () => {
  const t = (id: string, teamId = 'team-1') => ({ id, teamId });

  it('accepts a blocker of the same team with no cycle', () => {
    expect(checkNewDependency(t('a'), t('b'), edges('c<a'))).toEqual({ ok: true, value: null });
  });

  it('refuses a self-dependency first', () => {
    expect(checkNewDependency(t('a'), t('a'), [])).toEqual({ ok: false, reason: 'dependency_self' });
  });

  it('refuses a blocker of another team', () => {
    expect(checkNewDependency(t('a'), t('b', 'team-2'), [])).toEqual({ ok: false, reason: 'dependency_other_team' });
  });

  it('refuses a dependency it already has', () => {
    expect(checkNewDependency(t('a'), t('b'), edges('a<b'))).toEqual({ ok: false, reason: 'dependency_exists' });
  });

  it('refuses a cycle with its path', () => {
    expect(checkNewDependency(t('a'), t('b'), edges('b<c', 'c<a'))).toEqual({
      ok: false,
      reason: 'dependency_cycle',
      cycle: ['a', 'b', 'c'],
    });
  });
});

describe('dependency_cycle message', () => {
  it('names the cycle’s tasks by title, back to the first', () => {
    expect(dependencyCycleMessage(['Write spec', 'Review', 'Ship'])).toBe(
      'This dependency would make a cycle: "Write spec" → "Review" → "Ship" → "Write spec" (each is blocked by the next)',
    );
  });

  it('names a task the caller may not see as the issue says, with no title', () => {
    expect(dependencyCycleMessage(['Write spec', null])).toBe(
      'This dependency would make a cycle: "Write spec" → A task in another project → "Write spec" (each is blocked by the next)',
    );
  });

  it('cuts long titles and long cycles', () => {
    const message = dependencyCycleMessage(['x'.repeat(200), ...Array.from({ length: 14 }, (_, i) => `T${i}`)]);
    expect(message).toContain(`"${'x'.repeat(59)}…" → "T0"`);
    expect(message).toContain('"T8" → 5 more → "xxx');
    expect(message).not.toContain('T9');
    expect(message.length).toBeLessThan(400);
  });

  it('falls back to the plain text without titles', () => {
    expect(dependencyCycleMessage([])).toBe(ERRORS.dependency_cycle.message);
  });

  it('goes out as a 400 with reason dependency_cycle', () => {
    const message = dependencyCycleMessage(['A', 'B']);
    expect(errorStatus('dependency_cycle')).toBe(400);
    expect(errorBody('dependency_cycle', { blockedBy: message }).error).toEqual({
      code: 'validation_failed',
      message,
      reason: 'dependency_cycle',
      fields: { blockedBy: message },
    });
  });

  it('has a code and a message for every rule reason', () => {
    for (const reason of DEPENDENCY_RULE_REASONS) expect(ERRORS[reason]).toEqual(TASK_STRUCTURE_ERRORS[reason]);
    expect(errorStatus('dependency_exists')).toBe(409);
    expect(errorStatus('dependency_self')).toBe(400);
    expect(errorStatus('dependency_other_team')).toBe(400);
  });
});

describe('blocked', () => {
  it('is blocked while any blocker is not completed, a canceled one included', () => {
    expect(isBlocked([])).toBe(false);
    expect(isBlocked(['completed', 'completed'])).toBe(false);
    expect(isBlocked(['completed', 'started'])).toBe(true);
    expect(isBlocked(['canceled'])).toBe(true);
    expect(openBlockerCount(['completed', 'backlog', 'unstarted', 'started', 'canceled'])).toBe(4);
  });

  it('says how many open tasks block it, singular for one', () => {
    expect(blockedToastText(0)).toBeNull();
    expect(blockedToastText(1)).toBe('This task is blocked by 1 open task');
    expect(blockedToastText(2)).toBe('This task is blocked by 2 open tasks');
    expect(blockedToastText(12)).toBe('This task is blocked by 12 open tasks');
  });

  it('keeps the issue’s words', () => {
    expect(DEPENDENCY_TEXT).toMatchObject({ blocked: 'Blocked', hiddenTask: 'A task in another project' });
  });
});

describe('dependency schemas', () => {
  const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
  const other = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

  it('takes { blockedBy } and nothing else', () => {
    expect(addDependencyInput.parse({ blockedBy: id })).toEqual({ blockedBy: id });
    expect(addDependencyInput.safeParse({ blockedBy: 'nope' }).success).toBe(false);
    expect(addDependencyInput.safeParse({}).success).toBe(false);
    expect(addDependencyInput.safeParse({ blockedBy: id, extra: 1 }).success).toBe(false);
    expect(dependencyParams.parse({ id, otherId: other })).toEqual({ id, otherId: other });
  });

  it('reads a visible ref and a hidden one (no id, no title)', () => {
    const visible = { id, title: 'Ship', status: 'in_progress', statusCategory: 'started', projectId: other };
    expect(dependencyRef.parse(visible)).toEqual(visible);
    expect(dependencyRef.parse({ id: null, hidden: true })).toEqual({ id: null, hidden: true });
    expect(dependencyRef.safeParse({ id, hidden: true }).success).toBe(false);
    expect(dependencyListDto.parse({ blockedBy: [visible], blocking: [{ id: null, hidden: true }] }).blocking).toHaveLength(1);
  });

  it('takes a sub-task order of ids, not empty, nothing else', () => {
    expect(subtaskOrderInput.parse({ ids: [id, other] })).toEqual({ ids: [id, other] });
    expect(subtaskOrderInput.safeParse({ ids: [] }).success).toBe(false);
    expect(subtaskOrderInput.safeParse({ ids: ['x'] }).success).toBe(false);
    expect(subtaskOrderInput.safeParse({ ids: [id], more: true }).success).toBe(false);
  });
});

describe('hideDependencyEntry', () => {
  const entry = (field: string, oldValue: string | null, newValue: string | null) => ({
    field,
    oldValue,
    newValue,
    oldLabel: oldValue && 'Old title',
    newLabel: newValue && 'New title',
  });
  const hidden = (id: string) => id === 'b';

  it("hides a dependency's other task the reader may not see, id and title, added or removed", () => {
    expect(hideDependencyEntry(entry('blocked_by', null, 'b'), hidden)).toEqual({
      field: 'blocked_by',
      oldValue: null,
      newValue: HIDDEN_TASK_VALUE,
      oldLabel: null,
      newLabel: null,
    });
    expect(hideDependencyEntry(entry('blocking', 'b', null), hidden)).toMatchObject({
      oldValue: HIDDEN_TASK_VALUE,
      oldLabel: null,
      newValue: null,
    });
  });

  it('leaves a visible task, and every other field, as they are', () => {
    const visible = entry('blocked_by', null, 'a');
    expect(hideDependencyEntry(visible, hidden)).toBe(visible);
    const parent = entry('parent', null, 'b');
    expect(hideDependencyEntry(parent, hidden)).toBe(parent);
  });
});
