import type { NotificationDto } from './schemas/notification';

/** Where a notification leads when opened. A module of its own (types only from the schema), so the notification menu does not load zod. */
export function notificationTarget(n: Pick<NotificationDto, 'type' | 'data'>): string {
  if (n.type === 'team_invite') return '/dashboard';
  if (n.data.projectId) return `/tasks?project=${encodeURIComponent(n.data.projectId)}`;
  return '/tasks';
}
