import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProfileDto, UpdateProfileInput } from '../../../../domain/schemas/me';
import { api } from '../../../lib/api-client';
import { useAuthStore } from '../../../stores/auth-store';
import { settingsKeys } from './settings-keys';

export const updateProfile = (input: UpdateProfileInput) => api.patch<ProfileDto>('/api/me/profile', input);

/** Saves the profile; the signed-in user (the top bar's name and initials) changes with it at once. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (profile) => {
      queryClient.setQueryData(settingsKeys.profile(), profile);
      useAuthStore.getState().setUser(profile.user);
    },
  });
}
