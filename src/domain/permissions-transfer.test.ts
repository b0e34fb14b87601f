import { describe, expect, it } from 'vitest';
import { canTransferOwnership, canTransferOwnershipTo } from './permissions';

describe('ownership transfer', () => {
  it('only the owner transfers a team', () => {
    expect(canTransferOwnership('owner')).toBe(true);
    for (const role of ['admin', 'member', null, undefined] as const) expect(canTransferOwnership(role)).toBe(false);
  });

  it('to another member, never to themselves', () => {
    expect(canTransferOwnershipTo('owner', 'u1', { userId: 'u2' })).toBe(true);
    expect(canTransferOwnershipTo('owner', 'u1', { userId: 'u1' })).toBe(false);
    expect(canTransferOwnershipTo('admin', 'u1', { userId: 'u2' })).toBe(false);
  });
});
