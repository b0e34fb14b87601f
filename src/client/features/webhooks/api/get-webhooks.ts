import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WebhookListDto } from '../../../../domain/schemas/webhook';
import { api } from '../../../lib/api-client';
import { webhookKeys } from './webhook-keys';

export const getWebhooks = (teamId: string, signal?: AbortSignal) =>
  api.get<WebhookListDto>(`/api/teams/${encodeURIComponent(teamId)}/webhooks`, { signal });

export const webhooksQueryOptions = (teamId: string) =>
  queryOptions({ queryKey: webhookKeys.list(teamId), queryFn: ({ signal }) => getWebhooks(teamId, signal) });

export const useWebhooks = (teamId: string) => useQuery(webhooksQueryOptions(teamId));
