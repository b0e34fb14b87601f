import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RevokeOthersInput, SessionListDto } from '../../../../domain/schemas/security';
import { api } from '../../../lib/api-client';
import { settingsKeys } from './settings-keys';

export const getSessions = (signal?: AbortSignal) =>
  api.get<SessionListDto>('/api/me/sessions', { signal }).then((r) => r.sessions);

export const sessionsQueryOptions = () =>
  queryOptions({ queryKey: settingsKeys.sessions(), queryFn: ({ signal }) => getSessions(signal) });

export const useSessions = () => useQuery(sessionsQueryOptions());

export const revokeSession = (id: string) => api.delete(`/api/me/sessions/${id}`);

/** `revokeTokens`: every API token and the calendar link go too ('Also revoke API tokens and calendar links'). */
export const revokeOtherSessions = (input: RevokeOthersInput = {}) =>
  api.post<{ revoked: number }>('/api/me/sessions/revoke-others', input);

/**
 * 'Sign out' one session (an id), or every other one (null, with API tokens and the calendar link too when
 * `revokeTokens`); the list is fetched again either way, and the tokens and the link when they may have gone.
 */
export function useRevokeSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, revokeTokens = false }: { id: string | null; revokeTokens?: boolean }) => {
      await (id ? revokeSession(id) : revokeOtherSessions({ revokeTokens }));
    },
    onSettled: (_data, _error, { revokeTokens }) =>
      queryClient.invalidateQueries({ queryKey: revokeTokens ? settingsKeys.all : settingsKeys.sessions() }),
  });
}
