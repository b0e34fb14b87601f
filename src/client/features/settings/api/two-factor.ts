import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DisableTwoFactorInput,
  RecoveryCodesDto,
  TwoFactorReauthInput,
  TwoFactorSetupDto,
  TwoFactorStatusDto,
} from '../../../../domain/schemas/security';
import { api } from '../../../lib/api-client';
import { settingsKeys } from './settings-keys';

export const getTwoFactor = (signal?: AbortSignal) => api.get<TwoFactorStatusDto>('/api/me/2fa', { signal });

export const twoFactorQueryOptions = () =>
  queryOptions({ queryKey: settingsKeys.twoFactor(), queryFn: ({ signal }) => getTwoFactor(signal) });

export const useTwoFactor = () => useQuery(twoFactorQueryOptions());

/** A new secret (not in force until a code confirms it), after the password (when the account has one). */
export const setupTwoFactor = (input: TwoFactorReauthInput) => api.post<TwoFactorSetupDto>('/api/me/2fa/setup', input);
/** Ten new recovery codes; the old ones stop working. */
export const regenerateRecoveryCodes = (input: TwoFactorReauthInput) =>
  api.post<RecoveryCodesDto>('/api/me/2fa/recovery-codes', input);
export const enableTwoFactor = (code: string) => api.post<RecoveryCodesDto>('/api/me/2fa/enable', { code });
export const disableTwoFactor = (input: DisableTwoFactorInput) => api.post<void>('/api/me/2fa/disable', input);

export const useSetupTwoFactor = () => useMutation({ mutationFn: setupTwoFactor });

/** Each change of the status fetches it again. */
function useTwoFactorChange<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.twoFactor() }) });
}

export const useEnableTwoFactor = () => useTwoFactorChange(enableTwoFactor);
export const useDisableTwoFactor = () => useTwoFactorChange(disableTwoFactor);
export const useRegenerateRecoveryCodes = () => useTwoFactorChange(regenerateRecoveryCodes);
