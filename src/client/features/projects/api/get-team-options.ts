import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TeamDto } from '../../../../domain/schemas/team';
import { api } from '../../../lib/api-client';
import { projectKeys } from './project-keys';

/** What the team dropdowns need from a team: its id, name and the caller's role. */
export type TeamOption = Pick<TeamDto, 'id' | 'name' | 'myRole'>;

export const getTeamOptions = async (signal?: AbortSignal): Promise<TeamOption[]> => {
  const teams = await api.get<TeamDto[]>('/api/teams', { signal });
  return teams.map(({ id, name, myRole }) => ({ id, name, myRole }));
};

export const teamOptionsQueryOptions = () =>
  queryOptions({ queryKey: projectKeys.teamOptions(), queryFn: ({ signal }) => getTeamOptions(signal) });

export const useTeamOptions = () => useQuery(teamOptionsQueryOptions());
