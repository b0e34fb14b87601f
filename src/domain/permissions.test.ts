import { describe, expect, it } from 'vitest';
import {
  canActOnMember,
  canDeleteTask,
  canEditProject,
  canEditTeam,
  canLeaveTeam,
  canManageMembers,
  canMoveTaskToTeam,
  canUseAdminArea,
} from './permissions';

describe('team permissions', () => {
  it('only owner and admins edit projects and manage members', () => {
    for (const check of [canEditProject, canManageMembers]) {
      expect(check('owner')).toBe(true);
      expect(check('admin')).toBe(true);
      expect(check('member')).toBe(false);
      expect(check(null)).toBe(false);
    }
  });
  it('everyone but the owner may leave', () => {
    expect(canLeaveTeam('owner')).toBe(false);
    expect(canLeaveTeam('admin')).toBe(true);
    expect(canLeaveTeam('member')).toBe(true);
    expect(canLeaveTeam(null)).toBe(false);
  });
  it('only super admins use the admin area', () => {
    expect(canUseAdminArea('super_admin')).toBe(true);
    expect(canUseAdminArea('team_member')).toBe(false);
  });
  it('only the owner edits the team', () => {
    expect(canEditTeam('owner')).toBe(true);
    expect(canEditTeam('admin')).toBe(false);
    expect(canEditTeam('member')).toBe(false);
  });
  it('nobody acts on themselves or on the owner', () => {
    expect(canActOnMember('admin', 'a', { userId: 'a', role: 'admin' })).toBe(false);
    expect(canActOnMember('admin', 'a', { userId: 'o', role: 'owner' })).toBe(false);
    expect(canActOnMember('owner', 'o', { userId: 'o', role: 'owner' })).toBe(false);
    expect(canActOnMember('admin', 'a', { userId: 'm', role: 'member' })).toBe(true);
    expect(canActOnMember('owner', 'o', { userId: 'a', role: 'admin' })).toBe(true);
    expect(canActOnMember('member', 'm', { userId: 'x', role: 'member' })).toBe(false);
  });
  it('tasks are deleted by their creator or a manager', () => {
    expect(canDeleteTask('member', 'u', { creatorId: 'u' })).toBe(true);
    expect(canDeleteTask('member', 'u', { creatorId: 'v' })).toBe(false);
    expect(canDeleteTask('admin', 'u', { creatorId: 'v' })).toBe(true);
  });
  it('finding 1: a task leaves its team only with the right to delete it there, into a team of the caller', () => {
    expect(canMoveTaskToTeam('member', 'member', 'u', { creatorId: 'v' })).toBe(false);
    expect(canMoveTaskToTeam('member', 'member', 'u', { creatorId: 'u' })).toBe(true);
    expect(canMoveTaskToTeam('admin', 'member', 'u', { creatorId: 'v' })).toBe(true);
    expect(canMoveTaskToTeam('owner', 'member', 'u', { creatorId: 'v' })).toBe(true);
    // Not a member of one side: the creator who left the source, or a destination they cannot see.
    expect(canMoveTaskToTeam(null, 'owner', 'u', { creatorId: 'u' })).toBe(false);
    expect(canMoveTaskToTeam('owner', null, 'u', { creatorId: 'u' })).toBe(false);
  });
});
