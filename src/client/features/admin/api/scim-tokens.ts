import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateScimTokenInput, ScimTokenCreatedDto, ScimTokenListDto } from '../../../../domain/schemas/scim';
import { api } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

const scimTokensKey = () => [...adminKeys.all, 'scim-tokens'] as const;

export const getScimTokens = (signal?: AbortSignal) => api.get<ScimTokenListDto>('/api/admin/scim-tokens', { signal });

export const scimTokensQueryOptions = () =>
  queryOptions({ queryKey: scimTokensKey(), queryFn: ({ signal }) => getScimTokens(signal) });

export const useScimTokens = () => useQuery(scimTokensQueryOptions());

/** A new SCIM token: this answer is the only place its secret is ever shown. */
export const createScimToken = (input: CreateScimTokenInput) => api.post<ScimTokenCreatedDto>('/api/admin/scim-tokens', input);

export const revokeScimToken = (id: string) => api.delete(`/api/admin/scim-tokens/${id}`);

const useScimTokenMutation = <A, R>(mutationFn: (arg: A) => Promise<R>) => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: scimTokensKey() }) });
};

export const useCreateScimToken = () => useScimTokenMutation(createScimToken);
export const useRevokeScimToken = () => useScimTokenMutation(revokeScimToken);
