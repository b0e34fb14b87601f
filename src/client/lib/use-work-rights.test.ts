import { describe, expect, it } from 'vitest';
import { offersWork } from './use-work-rights';

describe('offersWork (work no project or team scopes: New Task, New Project, New Note)', () => {
  it('is offered while my teams load, and to someone of no team yet (as before roles existed)', () => {
    expect(offersWork(undefined)).toBe(true);
    expect(offersWork([])).toBe(true);
  });

  it('is offered when some team is one I contribute to, whatever else I view or guest', () => {
    expect(offersWork([{ myRole: 'viewer' }, { myRole: 'member' }])).toBe(true);
    expect(offersWork([{ myRole: 'owner' }])).toBe(true);
    expect(offersWork([{ myRole: 'guest' }, { myRole: 'admin' }])).toBe(true);
  });

  it('is not offered when I only view or am a guest in every team', () => {
    expect(offersWork([{ myRole: 'viewer' }])).toBe(false);
    expect(offersWork([{ myRole: 'guest' }, { myRole: 'viewer' }])).toBe(false);
  });
});
