import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { teamsQueryOptions } from '../../../lib/queries/teams';

/** My teams, newest first; `q` filters on the server by name or description. */
export function useTeams(q = '') {
  return useQuery({ ...teamsQueryOptions(q.trim()), placeholderData: keepPreviousData });
}
