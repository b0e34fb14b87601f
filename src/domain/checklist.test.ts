import { describe, expect, it } from 'vitest';
import { isChecklistFull, isExactOrder } from './checklist';
import { TASK_DETAIL_LIMITS } from './constants';

describe('checklist rules', () => {
  it('is full at the limit', () => {
    expect(isChecklistFull(TASK_DETAIL_LIMITS.checklistItemsMax - 1)).toBe(false);
    expect(isChecklistFull(TASK_DETAIL_LIMITS.checklistItemsMax)).toBe(true);
  });

  it('accepts an order only when it names every item exactly once', () => {
    const items = ['a', 'b', 'c'];
    expect(isExactOrder(items, ['c', 'a', 'b'])).toBe(true);
    expect(isExactOrder(items, ['C', 'A', 'B'])).toBe(true);
    expect(isExactOrder([], [])).toBe(true);
    expect(isExactOrder(items, ['a', 'b'])).toBe(false);
    expect(isExactOrder(items, ['a', 'b', 'c', 'd'])).toBe(false);
    expect(isExactOrder(items, ['a', 'a', 'b'])).toBe(false);
    expect(isExactOrder(items, ['a', 'b', 'd'])).toBe(false);
    expect(isExactOrder([], ['a'])).toBe(false);
  });
});
