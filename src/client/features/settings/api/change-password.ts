import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordInput } from '../../../../domain/schemas/auth';
import { api } from '../../../lib/api-client';
import { settingsKeys } from './settings-keys';

/** Every other session of the account is signed out; this one stays. */
export const changePassword = (input: ChangePasswordInput) => api.post<void>('/api/me/password', input);

/** With `revokeTokens`, the API tokens and the calendar link are gone too: Settings' lists are fetched again. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: (_data, { revokeTokens }) => {
      if (revokeTokens) void queryClient.invalidateQueries({ queryKey: settingsKeys.all });
    },
  });
}
