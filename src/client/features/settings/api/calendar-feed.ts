import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CalendarFeedCreatedDto, CalendarFeedStatusDto } from '../../../../domain/schemas/calendar';
import { api } from '../../../lib/api-client';
import { settingsKeys } from './settings-keys';

const calendarFeedKey = () => [...settingsKeys.all, 'calendar-feed'] as const;

export const getCalendarFeed = (signal?: AbortSignal) => api.get<CalendarFeedStatusDto>('/api/me/calendar-feed', { signal });

export const calendarFeedQueryOptions = () =>
  queryOptions({ queryKey: calendarFeedKey(), queryFn: ({ signal }) => getCalendarFeed(signal) });

export const useCalendarFeed = () => useQuery(calendarFeedQueryOptions());

/** 'Subscribe' and 'Reset link': a new secret URL (the answer is the only place it is ever shown). */
export const createCalendarFeed = () => api.post<CalendarFeedCreatedDto>('/api/me/calendar-feed');

export const revokeCalendarFeed = () => api.delete('/api/me/calendar-feed');

export function useCreateCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCalendarFeed,
    onSuccess: ({ url: _url, ...status }) => queryClient.setQueryData(calendarFeedKey(), status),
    onSettled: () => queryClient.invalidateQueries({ queryKey: calendarFeedKey() }),
  });
}

export function useRevokeCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeCalendarFeed,
    onSuccess: () =>
      queryClient.setQueryData<CalendarFeedStatusDto>(calendarFeedKey(), { active: false, createdAt: null, lastUsedAt: null }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: calendarFeedKey() }),
  });
}
