import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SsoSettingsDto, UpdateSsoSettingsInput } from '../../../../domain/schemas/sso';
import { api } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

const ssoKey = () => [...adminKeys.all, 'sso'] as const;

export const getSsoSettings = (signal?: AbortSignal) => api.get<SsoSettingsDto>('/api/admin/sso', { signal });

export const ssoSettingsQueryOptions = () =>
  queryOptions({ queryKey: ssoKey(), queryFn: ({ signal }) => getSsoSettings(signal) });

export const useSsoSettings = () => useQuery(ssoSettingsQueryOptions());

export const updateSsoSettings = (input: UpdateSsoSettingsInput) => api.put<SsoSettingsDto>('/api/admin/sso', input);

export function useUpdateSsoSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSsoSettings,
    onSuccess: (saved) => queryClient.setQueryData(ssoKey(), saved),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ssoKey() }),
  });
}
