import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WebhookDeliveryDto, WebhookDeliveryListDto } from '../../../../domain/schemas/webhook';
import { api } from '../../../lib/api-client';
import { webhookKeys } from './webhook-keys';

const hookPath = (teamId: string, webhookId: string) =>
  `/api/teams/${encodeURIComponent(teamId)}/webhooks/${encodeURIComponent(webhookId)}`;

/**
 * An open log looks again this often: quickly while a delivery waits for its attempt (the answer comes within
 * seconds), and now and then otherwise, for the events the team's work sends meanwhile.
 */
const PENDING_REFRESH_MS = 1_500;
const IDLE_REFRESH_MS = 5_000;

export const getWebhookDeliveries = (teamId: string, webhookId: string, limit: number, signal?: AbortSignal) =>
  api.get<WebhookDeliveryListDto>(`${hookPath(teamId, webhookId)}/deliveries`, { signal, query: { limit } });

export const webhookDeliveriesQueryOptions = (teamId: string, webhookId: string, limit: number) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(teamId, webhookId, limit),
    queryFn: ({ signal }) => getWebhookDeliveries(teamId, webhookId, limit, signal),
    refetchInterval: (query) =>
      query.state.data?.deliveries.some((d) => d.status === 'pending') ? PENDING_REFRESH_MS : IDLE_REFRESH_MS,
  });

export const useWebhookDeliveries = (teamId: string, webhookId: string, limit: number) =>
  useQuery(webhookDeliveriesQueryOptions(teamId, webhookId, limit));

/** 'Send test event': a `ping` delivered like the others. */
export const sendTestEvent = (teamId: string, webhookId: string) =>
  api.post<WebhookDeliveryDto>(`${hookPath(teamId, webhookId)}/test`);

/** 'Redeliver': the same body again, as a new delivery. */
export const redeliver = (teamId: string, webhookId: string, deliveryId: number) =>
  api.post<WebhookDeliveryDto>(`${hookPath(teamId, webhookId)}/deliveries/${deliveryId}/redeliver`);

export function useSendTestEvent(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: string) => sendTestEvent(teamId, webhookId),
    onSettled: (_data, _error, webhookId) =>
      queryClient.invalidateQueries({ queryKey: webhookKeys.allDeliveries(teamId, webhookId) }),
  });
}

export function useRedeliver(teamId: string, webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: number) => redeliver(teamId, webhookId, deliveryId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.allDeliveries(teamId, webhookId) }),
  });
}
