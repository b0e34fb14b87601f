// The notifications module's public surface: its service, creating notifications, and the users' preferences.
export { createMany, type NotificationRow } from './notifications.repo';
export { NotificationsService, notifyPendingInvitations } from './notifications.service';
export { listByUserId, listInAppMuted, upsertMany, wantsEmail } from './preferences.repo';
