import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserDto } from '../../../../domain/schemas/auth';
import type { ProfileDto } from '../../../../domain/schemas/me';
import { api, networkError, parseError, withFreshToken } from '../../../lib/api-client';
import { teamKeys } from '../../../lib/queries/teams';
import { useAuthStore } from '../../../stores/auth-store';
import { settingsKeys } from './settings-keys';

async function postImage(image: Blob, fileName: string, token: string | undefined): Promise<Response> {
  const body = new FormData();
  body.append('file', image, fileName);
  try {
    return await fetch('/api/me/avatar', {
      method: 'POST',
      headers: { accept: 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body,
    });
  } catch {
    throw networkError();
  }
}

/**
 * POST /api/me/avatar: the (cropped) image as multipart field `file`, with the session's bearer token; an expired
 * token is refreshed once (the shared refresh of every call) and the image sent again. Failures are ApiErrors.
 */
export async function uploadAvatar(image: Blob, fileName: string): Promise<UserDto> {
  const res = await withFreshToken((token) => postImage(image, fileName, token));
  if (!res.ok) throw await parseError(res);
  return (await res.json()) as UserDto;
}

export const removeAvatar = () => api.delete<UserDto>('/api/me/avatar');

/** The signed-in user changed: the top bar, the profile, and the member lists that show the picture. */
function useAvatarChange<I>(mutationFn: (input: I) => Promise<UserDto>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (user) => {
      useAuthStore.getState().setUser(user);
      queryClient.setQueryData<ProfileDto>(settingsKeys.profile(), (profile) => profile && { ...profile, user });
      void queryClient.invalidateQueries({ queryKey: teamKeys.all });
    },
  });
}

export const useUploadAvatar = () =>
  useAvatarChange(({ image, fileName }: { image: Blob; fileName: string }) => uploadAvatar(image, fileName));
export const useRemoveAvatar = () => useAvatarChange(() => removeAvatar());
