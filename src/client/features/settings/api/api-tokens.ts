import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiTokenCreatedDto, ApiTokenListDto, CreateApiTokenInput } from '../../../../domain/schemas/api-token';
import { api } from '../../../lib/api-client';
import { settingsKeys } from './settings-keys';

const apiTokensKey = () => [...settingsKeys.all, 'api-tokens'] as const;

/** The tokens, and `verifyEmailFirst`: whether the address must be verified before one is made. */
export const getApiTokens = (signal?: AbortSignal) => api.get<ApiTokenListDto>('/api/me/api-tokens', { signal });

export const apiTokensQueryOptions = () =>
  queryOptions({ queryKey: apiTokensKey(), queryFn: ({ signal }) => getApiTokens(signal) });

export const useApiTokens = () => useQuery(apiTokensQueryOptions());

/** A new token: the answer is the only place its secret is ever shown. */
export const createApiToken = (input: CreateApiTokenInput) => api.post<ApiTokenCreatedDto>('/api/me/api-tokens', input);

export const revokeApiToken = (id: string) => api.delete(`/api/me/api-tokens/${id}`);

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiToken,
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiTokensKey() }),
  });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiToken,
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiTokensKey() }),
  });
}
