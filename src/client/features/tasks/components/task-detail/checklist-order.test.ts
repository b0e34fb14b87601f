import { describe, expect, it } from 'vitest';
import { checklistProgress, moveById, moveItem } from './checklist-order';

const ids = (list: { id: string }[]) => list.map((i) => i.id);
const items = ['a', 'b', 'c', 'd'].map((id) => ({ id }));

describe('moveItem', () => {
  it('moves up and down', () => {
    expect(moveItem(['a', 'b', 'c'], 1, 0)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
  });

  it('clamps the target and leaves the input alone', () => {
    const list = ['a', 'b', 'c'];
    expect(moveItem(list, 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(list, 2, 9)).toEqual(['a', 'b', 'c']);
    expect(moveItem(list, 5, 0)).toEqual(['a', 'b', 'c']);
    expect(list).toEqual(['a', 'b', 'c']);
  });
});

describe('moveById', () => {
  it('puts the dragged item where the drop target was', () => {
    expect(ids(moveById(items, 'a', 'c'))).toEqual(['b', 'c', 'a', 'd']);
    expect(ids(moveById(items, 'd', 'b'))).toEqual(['a', 'd', 'b', 'c']);
  });

  it('keeps the order for unknown ids', () => {
    expect(ids(moveById(items, 'x', 'b'))).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('checklistProgress', () => {
  it('counts ticked items', () => {
    expect(checklistProgress([{ done: true }, { done: false }, { done: false }])).toEqual({ done: 1, total: 3 });
    expect(checklistProgress([])).toEqual({ done: 0, total: 0 });
  });
});
