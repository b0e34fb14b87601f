import { describe, expect, it } from 'vitest';
import { TASK_STATUSES } from '../../domain/constants';
import { DEFAULT_STATUSES } from '../../domain/workflow';
import { defaultColumnOf, defaultLookOf } from './default-column';

describe('defaultColumnOf', () => {
  it('keeps each default status in its own column', () => {
    for (const s of DEFAULT_STATUSES) expect(defaultColumnOf({ status: s.key, statusCategory: s.category })).toBe(s.key);
  });

  it("puts another key under its category's first default status", () => {
    expect(defaultColumnOf({ status: 'backlog', statusCategory: 'backlog' })).toBe('todo');
    expect(defaultColumnOf({ status: 'ready', statusCategory: 'unstarted' })).toBe('todo');
    expect(defaultColumnOf({ status: 'design', statusCategory: 'started' })).toBe('in_progress');
    expect(defaultColumnOf({ status: 'qa', statusCategory: 'started' })).toBe('in_progress');
    expect(defaultColumnOf({ status: 'done', statusCategory: 'completed' })).toBe('completed');
  });

  it('leaves a canceled task off the board', () => {
    expect(defaultColumnOf({ status: 'won_t_do', statusCategory: 'canceled' })).toBeNull();
  });
});

describe('defaultLookOf', () => {
  it("is the column's status, and Completed's for a canceled task", () => {
    expect(defaultLookOf({ status: 'design', statusCategory: 'started' })).toBe('in_progress');
    expect(defaultLookOf({ status: 'won_t_do', statusCategory: 'canceled' })).toBe('completed');
    for (const status of TASK_STATUSES) {
      const { category } = DEFAULT_STATUSES.find((s) => s.key === status)!;
      expect(defaultLookOf({ status, statusCategory: category })).toBe(status);
    }
  });
});
