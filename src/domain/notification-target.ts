import type { NotificationDto } from './schemas/notification';

/** Where a notification (or a mail about it) leads when opened. A module of its own (types only from the schema), so the notification menu does not load zod. */
export function notificationTarget(n: Pick<NotificationDto, 'type' | 'data'>): string {
  if (n.type === 'team_invite') return '/dashboard';
  // A failing webhook: the team's settings, where its delivery log is.
  if (n.type === 'webhook_failing' && n.data.teamId) return `/teams/${encodeURIComponent(n.data.teamId)}/settings`;
  if (n.data.noteId) return `/notes/${encodeURIComponent(n.data.noteId)}`;
  // The task itself (its page over the project's board) when the notification names one.
  if (n.data.taskId) {
    const board = n.data.projectId ? `?project=${encodeURIComponent(n.data.projectId)}` : '';
    return `/tasks/${encodeURIComponent(n.data.taskId)}${board}`;
  }
  if (n.data.projectId) return `/tasks?project=${encodeURIComponent(n.data.projectId)}`;
  return '/tasks';
}
