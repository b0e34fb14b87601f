import { rootKey } from '../../../lib/query-keys';

/** Under the teams root: a team's change (realtime) refreshes its webhooks too, and no new root is needed. */
export const webhookKeys = {
  all: [...rootKey('teams'), 'webhooks'] as const,
  list: (teamId: string) => [...webhookKeys.all, teamId] as const,
  deliveries: (teamId: string, webhookId: string, limit: number) =>
    [...webhookKeys.list(teamId), webhookId, 'deliveries', limit] as const,
  allDeliveries: (teamId: string, webhookId: string) => [...webhookKeys.list(teamId), webhookId, 'deliveries'] as const,
};
