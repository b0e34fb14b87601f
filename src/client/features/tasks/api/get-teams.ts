import { useQuery } from '@tanstack/react-query';
import type { TeamDto } from '../../../../domain/schemas/team';
import { api } from '../../../lib/api-client';
import { taskKeys } from './task-keys';

/** The caller's teams with their active members, for the assignee filter. */
export const getTeams = (signal?: AbortSignal) => api.get<TeamDto[]>('/api/teams', { signal });
export const useTaskTeams = () => useQuery({ queryKey: taskKeys.teams(), queryFn: ({ signal }) => getTeams(signal) });

/** One team with its active members: the assignee choices for a project of that team. */
export const getTeam = (teamId: string, signal?: AbortSignal) => api.get<TeamDto>(`/api/teams/${teamId}`, { signal });
export const useTaskTeam = (teamId: string | undefined) =>
  useQuery({
    queryKey: taskKeys.team(teamId ?? ''),
    queryFn: ({ signal }) => getTeam(teamId!, signal),
    enabled: Boolean(teamId),
  });
