import { rootKey } from '../../../lib/query-keys';

/** Query keys of the notifications feature; root 'notifications' (realtime invalidates by root). */
export const notificationKeys = {
  all: rootKey('notifications'),
  lists: () => [...notificationKeys.all, 'list'] as const,
  list: (limit: number, offset: number) => [...notificationKeys.lists(), { limit, offset }] as const,
};
