import { describe, expect, it } from 'vitest';
import { TEAM_ROLES } from './constants';
import { avatarOverflow, initials, memberCountLabel, sortMembers, teamRoleTone, teamStats } from './teams';

describe('teamStats', () => {
  it('counts owned, shared and the sum of members', () => {
    const teams = [
      { ownerId: 'me', members: [1, 2, 3] },
      { ownerId: 'other', members: [1, 2] },
      { ownerId: 'other2', members: [1] },
    ];
    expect(teamStats(teams, 'me')).toEqual({ totalTeams: 3, teamsOwned: 1, teamsShared: 2, totalMembers: 6 });
  });
  it('is all zero without teams', () => {
    expect(teamStats([], 'me')).toEqual({ totalTeams: 0, teamsOwned: 0, teamsShared: 0, totalMembers: 0 });
  });
});

describe('avatarOverflow', () => {
  it('shows up to 4 then +N more', () => {
    expect(avatarOverflow([1, 2, 3])).toEqual({ shown: [1, 2, 3], more: 0 });
    expect(avatarOverflow([1, 2, 3, 4])).toEqual({ shown: [1, 2, 3, 4], more: 0 });
    expect(avatarOverflow([1, 2, 3, 4, 5, 6])).toEqual({ shown: [1, 2, 3, 4], more: 2 });
  });
});

describe('initials', () => {
  it('takes the first letters of two words', () => {
    expect(initials('ada lovelace king')).toBe('AL');
    expect(initials('  Bob ')).toBe('B');
    expect(initials('')).toBe('?');
  });
});

describe('sortMembers', () => {
  it('puts the owner first, then admins, then members by join time', () => {
    const sorted = sortMembers([
      { id: 'm2', role: 'member' as const, joinedAt: '2024-01-03' },
      { id: 'a', role: 'admin' as const, joinedAt: '2024-01-04' },
      { id: 'm1', role: 'member' as const, joinedAt: '2024-01-02' },
      { id: 'o', role: 'owner' as const, joinedAt: '2024-01-01' },
    ]);
    expect(sorted.map((m) => m.id)).toEqual(['o', 'a', 'm1', 'm2']);
  });
});

describe('teamRoleTone and memberCountLabel', () => {
  it('gives owner and admin distinct badges', () => {
    expect(new Set([teamRoleTone('owner'), teamRoleTone('admin'), teamRoleTone('member')]).size).toBe(3);
  });
  it('gives every role its own badge, viewer and guest too (issue 41)', () => {
    expect(new Set(TEAM_ROLES.map(teamRoleTone)).size).toBe(TEAM_ROLES.length);
  });
  it('pluralises the member count', () => {
    expect(memberCountLabel(1)).toBe('1 member');
    expect(memberCountLabel(0)).toBe('0 members');
    expect(memberCountLabel(5)).toBe('5 members');
  });
});
