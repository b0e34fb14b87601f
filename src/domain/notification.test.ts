import { describe, expect, it } from 'vitest';
import { notificationTarget } from './notification-target';
import { NOTIFICATION_TEXT, notificationListDto } from './schemas/notification';

describe('notificationTarget', () => {
  it("opens the task's page over its project's board for task notifications, the board for project ones", () => {
    const data = { taskId: 't1', projectId: 'p 1', teamId: 'team' };
    expect(notificationTarget({ type: 'task_assigned', data })).toBe('/tasks/t1?project=p%201');
    expect(notificationTarget({ type: 'task_completed', data })).toBe('/tasks/t1?project=p%201');
    expect(notificationTarget({ type: 'mentioned', data: { taskId: 't/2' } })).toBe('/tasks/t%2F2');
    expect(notificationTarget({ type: 'task_assigned', data: { projectId: 'p 1' } })).toBe('/tasks?project=p%201');
    expect(notificationTarget({ type: 'project_updated', data: { projectId: 'p2', progress: 50 } })).toBe('/tasks?project=p2');
  });

  it('opens the dashboard (with its invitation panel) for a team invitation', () => {
    expect(notificationTarget({ type: 'team_invite', data: { teamId: 'x', invitationId: 'i' } })).toBe('/dashboard');
  });

  it('falls back to the tasks page without a project', () => {
    expect(notificationTarget({ type: 'task_assigned', data: {} })).toBe('/tasks');
  });
});

describe('notification texts', () => {
  it('name the actor and the subject', () => {
    expect(NOTIFICATION_TEXT.task_assigned.message('Ann', 'Fix it')).toBe('Ann assigned you "Fix it"');
    expect(NOTIFICATION_TEXT.task_completed.message('Ann', 'Fix it')).toBe('Ann completed "Fix it"');
    expect(NOTIFICATION_TEXT.project_updated.message('Ann', 'Site', 40)).toBe('Ann updated "Site" (40% complete)');
    expect(NOTIFICATION_TEXT.team_invite.message('Ann', 'Crew')).toBe('Ann invited you to join Crew');
  });

  it('the list schema drops unknown keys from data', () => {
    const parsed = notificationListDto.parse({
      notifications: [
        {
          id: '7b0c1f0e-2a51-4a4c-9a35-0d7b0c1f0e2a',
          userId: '7b0c1f0e-2a51-4a4c-9a35-0d7b0c1f0e2b',
          type: 'task_assigned',
          title: 't',
          message: 'm',
          isRead: false,
          data: { taskId: 'x', secret: 'no' },
          createdAt: '2026-01-01T00:00:00.000Z',
        },
      ],
      total: 1,
      unread: 1,
    });
    expect(parsed.notifications[0]!.data).toEqual({ taskId: 'x' });
  });
});
