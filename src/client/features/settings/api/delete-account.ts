import { useMutation } from '@tanstack/react-query';
import type { DeleteAccountInput } from '../../../../domain/schemas/me';
import { api } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { useAuthStore } from '../../../stores/auth-store';

export const deleteAccount = (input: DeleteAccountInput) => api.post<void>('/api/me/delete', input);

/** The account is gone with its sessions: this browser forgets it too (the app then shows /login). */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: () => {
      useAuthStore.getState().signOutLocal();
      queryClient.clear();
    },
  });
}
