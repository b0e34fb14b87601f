import { rootKey } from '../../../lib/query-keys';

/** The one query-key factory of the dashboard feature; every key starts with 'dashboard'. */
export const dashboardKeys = {
  all: rootKey('dashboard'),
  summary: (today: string) => [...dashboardKeys.all, 'summary', today] as const,
};
