import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateWebhookInput, UpdateWebhookInput, WebhookCreatedDto, WebhookDto } from '../../../../domain/schemas/webhook';
import { api } from '../../../lib/api-client';
import { webhookKeys } from './webhook-keys';

const base = (teamId: string) => `/api/teams/${encodeURIComponent(teamId)}/webhooks`;

/** 'Add webhook': the answer carries the signing secret, shown once. */
export const createWebhook = (teamId: string, input: CreateWebhookInput) => api.post<WebhookCreatedDto>(base(teamId), input);

export const updateWebhook = (teamId: string, webhookId: string, input: UpdateWebhookInput) =>
  api.patch<WebhookDto>(`${base(teamId)}/${encodeURIComponent(webhookId)}`, input);

export const deleteWebhook = (teamId: string, webhookId: string) =>
  api.delete(`${base(teamId)}/${encodeURIComponent(webhookId)}`);

export function useCreateWebhook(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateWebhookInput) => createWebhook(teamId, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list(teamId) }),
  });
}

export function useUpdateWebhook(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ webhookId, input }: { webhookId: string; input: UpdateWebhookInput }) =>
      updateWebhook(teamId, webhookId, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list(teamId) }),
  });
}

export function useDeleteWebhook(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: string) => deleteWebhook(teamId, webhookId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list(teamId) }),
  });
}
