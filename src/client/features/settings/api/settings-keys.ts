import { rootKey } from '../../../lib/query-keys';

/** The query keys of Settings: the caller's own account. */
export const settingsKeys = {
  all: rootKey('settings'),
  profile: () => [...settingsKeys.all, 'profile'] as const,
  notificationPreferences: () => [...settingsKeys.all, 'notification-preferences'] as const,
  sessions: () => [...settingsKeys.all, 'sessions'] as const,
  twoFactor: () => [...settingsKeys.all, 'two-factor'] as const,
};
