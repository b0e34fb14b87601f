import { describe, expect, it } from 'vitest';
import type { StatusDto } from '../../../domain/schemas/workflow';
import { DEFAULT_STATUSES, STATUS_LIMITS } from '../../../domain/workflow';
import { emptyDraft, inOrder, moveTargets, parseWipLimit, taskCountText, wipLimitText } from './workflow-edit';

const statuses: StatusDto[] = DEFAULT_STATUSES.map((s, i) => ({ ...s, id: `id-${i}` }));

describe('parseWipLimit', () => {
  it('reads empty as none and whole numbers from 1 to the maximum', () => {
    expect(parseWipLimit('')).toEqual({ ok: true, value: null });
    expect(parseWipLimit('  ')).toEqual({ ok: true, value: null });
    expect(parseWipLimit('3')).toEqual({ ok: true, value: 3 });
    expect(parseWipLimit(String(STATUS_LIMITS.wipLimitMax))).toEqual({ ok: true, value: STATUS_LIMITS.wipLimitMax });
  });

  it('refuses 0, negatives, fractions, words and numbers past the maximum', () => {
    for (const text of ['0', '-1', '1.5', 'abc', '1e9', String(STATUS_LIMITS.wipLimitMax + 1)]) {
      expect(parseWipLimit(text), text).toEqual({ ok: false, reason: 'status_wip_limit_invalid' });
    }
  });

  it('shows a limit back as the field text', () => {
    expect(wipLimitText(null)).toBe('');
    expect(wipLimitText(4)).toBe('4');
  });
});

describe('inOrder', () => {
  it('puts the statuses in the order of the ids and renumbers their positions', () => {
    const next = inOrder(statuses, ['id-0', 'id-1', 'id-3', 'id-2']);
    expect(next.map((s) => [s.key, s.position])).toEqual([
      ['todo', 0],
      ['in_progress', 1],
      ['completed', 2],
      ['review', 3],
    ]);
  });

  it('leaves out ids it does not know', () => {
    expect(inOrder(statuses, ['id-2', 'nope']).map((s) => s.key)).toEqual(['review']);
  });
});

describe('moveTargets', () => {
  it('offers every other status, in order', () => {
    expect(moveTargets(statuses, 'id-2').map((s) => s.name)).toEqual(['To Do', 'In Progress', 'Completed']);
  });
});

describe('emptyDraft', () => {
  it("starts a new status as a started one in that category's colour", () => {
    expect(emptyDraft()).toEqual({ name: '', category: 'started', color: '#0ea5e9' });
    expect(emptyDraft('canceled').color).toBe('#ef4444');
  });
});

describe('taskCountText', () => {
  it('counts in words', () => {
    expect([0, 1, 2].map(taskCountText)).toEqual(['0 tasks', '1 task', '2 tasks']);
  });
});
