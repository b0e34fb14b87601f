import { rootKey } from '../../../lib/query-keys';

/** Query keys of the admin feature. */
export const adminKeys = {
  all: rootKey('admin'),
  overview: () => [...adminKeys.all, 'overview'] as const,
  users: (q: string) => [...adminKeys.all, 'users', { q }] as const,
};
