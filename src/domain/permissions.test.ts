import { describe, expect, it } from 'vitest';
import {
  canActOnMember,
  canAssignTask,
  canCommentOnTask,
  canContribute,
  canDeleteAttachment,
  canDeleteComment,
  canDeleteTask,
  canEditComment,
  canEditProject,
  canEditView,
  canEditTask,
  canEditTeam,
  canLeaveTeam,
  canManageMembers,
  canMoveTaskToTeam,
  canRestructureTask,
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
    // A viewer or a guest in the destination adds nothing there (issue 41).
    expect(canMoveTaskToTeam('owner', 'viewer', 'u', { creatorId: 'u' })).toBe(false);
    expect(canMoveTaskToTeam('owner', 'guest', 'u', { creatorId: 'u' })).toBe(false);
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
    // Its owner, now a viewer or a guest of the team, no longer changes a view shared there (issue 41).
    expect(canEditView('viewer', 'u', shared)).toBe(false);
    expect(canEditView('guest', 'u', shared)).toBe(false);
    expect(canEditView('viewer', 'u', { ownerId: 'u', teamId: null })).toBe(true);
  });
});

describe('viewer and guest (issue 41)', () => {
  const mine = { assigneeId: 'u' };
  const theirs = { assigneeId: 'v' };
  it('members and up contribute; a viewer and a guest do not', () => {
    for (const role of ['owner', 'admin', 'member'] as const) expect(canContribute(role)).toBe(true);
    for (const role of ['viewer', 'guest', null, undefined] as const) expect(canContribute(role)).toBe(false);
  });
  it('a guest edits only the tasks assigned to them; a viewer none', () => {
    expect(canEditTask('member', 'u', theirs)).toBe(true);
    expect(canEditTask('guest', 'u', mine)).toBe(true);
    expect(canEditTask('guest', 'u', theirs)).toBe(false);
    expect(canEditTask('guest', 'u', { assigneeId: null })).toBe(false);
    expect(canEditTask('viewer', 'u', mine)).toBe(false);
    expect(canEditTask(null, 'u', mine)).toBe(false);
  });
  it('a viewer comments only when the team allows it; a guest on their own tasks', () => {
    const open = { viewersMayComment: true };
    const closed = { viewersMayComment: false };
    expect(canCommentOnTask('viewer', 'u', theirs, open)).toBe(true);
    expect(canCommentOnTask('viewer', 'u', theirs, closed)).toBe(false);
    expect(canCommentOnTask('guest', 'u', mine, closed)).toBe(true);
    expect(canCommentOnTask('guest', 'u', theirs, open)).toBe(false);
    expect(canCommentOnTask('member', 'u', theirs, closed)).toBe(true);
  });
  it('a guest keeps a task assigned to themselves and does not move it', () => {
    expect(canAssignTask('member', 'u', 'v')).toBe(true);
    expect(canAssignTask('member', 'u', null)).toBe(true);
    expect(canAssignTask('guest', 'u', 'u')).toBe(true);
    expect(canAssignTask('guest', 'u', 'v')).toBe(false);
    expect(canAssignTask('guest', 'u', null)).toBe(false);
    expect(canAssignTask('viewer', 'u', 'u')).toBe(false);
    expect(canRestructureTask('member')).toBe(true);
    expect(canRestructureTask('guest')).toBe(false);
    expect(canRestructureTask('viewer')).toBe(false);
  });
  it('a viewer or a guest deletes no task, even one they created as a member', () => {
    expect(canDeleteTask('guest', 'u', { creatorId: 'u' })).toBe(false);
    expect(canDeleteTask('viewer', 'u', { creatorId: 'u' })).toBe(false);
    expect(canDeleteComment('guest', 'u', { authorId: 'u' })).toBe(true);
  });
});
