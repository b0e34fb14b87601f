import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TeamDto } from '../../../../domain/schemas/team';
import { api } from '../../../lib/api-client';
import { teamKeys } from './team-keys';

export const getTeams = (q = '', signal?: AbortSignal) => api.get<TeamDto[]>('/api/teams', { query: { q }, signal });

export const teamsQueryOptions = (q = '') =>
  queryOptions({ queryKey: teamKeys.list(q), queryFn: ({ signal }) => getTeams(q, signal) });

/** My teams, newest first; `q` filters on the server by name or description. */
export function useTeams(q = '') {
  return useQuery({ ...teamsQueryOptions(q.trim()), placeholderData: keepPreviousData });
}
