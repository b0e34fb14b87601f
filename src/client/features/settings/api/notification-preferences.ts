import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationPreferencesDto } from '../../../../domain/schemas/me';
import { api } from '../../../lib/api-client';
import { toastError } from '../../../lib/errors';
import { SETTINGS_MSG } from '../../../../domain/settings-messages';
import { settingsKeys } from './settings-keys';

const URL = '/api/me/notification-preferences';

export const getNotificationPreferences = (signal?: AbortSignal) => api.get<NotificationPreferencesDto>(URL, { signal });

export const notificationPreferencesQueryOptions = () =>
  queryOptions({ queryKey: settingsKeys.notificationPreferences(), queryFn: ({ signal }) => getNotificationPreferences(signal) });

export const useNotificationPreferences = () => useQuery(notificationPreferencesQueryOptions());

export const saveNotificationPreferences = (input: NotificationPreferencesDto) => api.put<NotificationPreferencesDto>(URL, input);

/** A switch flips at once; a failed save puts it back, with a toast. */
export function useSaveNotificationPreferences() {
  const queryClient = useQueryClient();
  const key = settingsKeys.notificationPreferences();
  return useMutation({
    mutationKey: key,
    mutationFn: saveNotificationPreferences,
    onMutate: async (next) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<NotificationPreferencesDto>(key);
      queryClient.setQueryData(key, next);
      return { previous };
    },
    onError: (error, _next, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
      toastError(error, SETTINGS_MSG.preferencesFailed);
    },
    // Switches flipped in a row: only the last save's answer refetches, so an earlier one cannot flip a later back.
    onSettled: () => queryClient.isMutating({ mutationKey: key }) === 1 && queryClient.invalidateQueries({ queryKey: key }),
  });
}
