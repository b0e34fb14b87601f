import { describe, expect, it } from 'vitest';
import { presentUsers } from './presence';

describe('presentUsers', () => {
  it('lists each person once, self first, and drops malformed states and colours', () => {
    const states = new Map<number, Record<string, unknown>>([
      [1, { user: { id: 'b', name: 'Bea', color: '#1d4ed8' } }],
      [2, { user: { id: 'me', name: 'Me', color: '#b91c1c' } }],
      [3, { user: { id: 'b', name: 'Bea (tab 2)', color: '#1d4ed8' } }],
      [4, { user: { id: 'a', name: 'Al', color: 'red;background:url(x)' } }],
      [5, { cursor: null }],
      [6, { user: { id: 7, name: 'bad' } }],
    ]);
    expect(presentUsers(states, 'me')).toEqual([
      { id: 'me', name: 'Me', color: '#b91c1c' },
      { id: 'a', name: 'Al', color: '#475569' },
      { id: 'b', name: 'Bea', color: '#1d4ed8' },
    ]);
  });
});
