import { describe, expect, it } from 'vitest';
import {
  canActOnMember,
  canDeleteAttachment,
  canDeleteComment,
  canDeleteTask,
  canEditComment,
  canEditProject,
  canEditView,
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

describe('comments and files', () => {
  it("only the author edits a comment; a departed author's comment is nobody's to edit", () => {
    expect(canEditComment('u', { authorId: 'u' })).toBe(true);
    expect(canEditComment('u', { authorId: 'v' })).toBe(false);
    expect(canEditComment('u', { authorId: null })).toBe(false);
  });

  it('the author or a manager deletes a comment or a file; a plain member deletes only their own', () => {
    expect(canDeleteComment('member', 'u', { authorId: 'u' })).toBe(true);
    expect(canDeleteComment('member', 'u', { authorId: 'v' })).toBe(false);
    expect(canDeleteComment('admin', 'u', { authorId: null })).toBe(true);
    expect(canDeleteComment('owner', 'u', { authorId: 'v' })).toBe(true);
    expect(canDeleteComment(null, 'u', { authorId: 'u' })).toBe(false);
    expect(canDeleteAttachment('member', 'u', { uploaderId: 'u' })).toBe(true);
    expect(canDeleteAttachment('member', 'u', { uploaderId: 'v' })).toBe(false);
    expect(canDeleteAttachment('admin', 'u', { uploaderId: 'v' })).toBe(true);
    expect(canDeleteAttachment(undefined, 'u', { uploaderId: 'u' })).toBe(false);
  });
});

describe('saved views', () => {
  it('the owner edits their view; owners and admins edit views shared with their team; members do not', () => {
    const shared = { ownerId: 'u', teamId: 't' };
    expect(canEditView('member', 'u', shared)).toBe(true);
    expect(canEditView('member', 'v', shared)).toBe(false);
    expect(canEditView('admin', 'v', shared)).toBe(true);
    expect(canEditView('owner', 'v', shared)).toBe(true);
    expect(canEditView(null, 'u', { ownerId: 'u', teamId: null })).toBe(true);
    expect(canEditView('owner', 'v', { ownerId: 'u', teamId: null })).toBe(false);
  });
});
