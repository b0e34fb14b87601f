import type { NotificationDto } from './schemas/notification';

/** Where a notification leads when opened. */
export function notificationTarget(n: Pick<NotificationDto, 'type' | 'data'>): string {
  if (n.type === 'team_invite') return '/dashboard';
  if (n.data.projectId) return `/tasks?project=${encodeURIComponent(n.data.projectId)}`;
  return '/tasks';
}
