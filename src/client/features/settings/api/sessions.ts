import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionListDto } from '../../../../domain/schemas/security';
import { api } from '../../../lib/api-client';
import { settingsKeys } from './settings-keys';

export const getSessions = (signal?: AbortSignal) =>
  api.get<SessionListDto>('/api/me/sessions', { signal }).then((r) => r.sessions);

export const sessionsQueryOptions = () =>
  queryOptions({ queryKey: settingsKeys.sessions(), queryFn: ({ signal }) => getSessions(signal) });

export const useSessions = () => useQuery(sessionsQueryOptions());

export const revokeSession = (id: string) => api.delete(`/api/me/sessions/${id}`);

export const revokeOtherSessions = () => api.post<{ revoked: number }>('/api/me/sessions/revoke-others');

/** 'Sign out' one session (an id), or every other one (null); the list is fetched again either way. */
export function useRevokeSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string | null) => {
      await (id ? revokeSession(id) : revokeOtherSessions());
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.sessions() }),
  });
}
