import { useQuery } from '@tanstack/react-query';
import { teamQueryOptions, teamsQueryOptions } from '../../../lib/queries/teams';

/** The caller's teams with their active members, for the assignee filter. */
export const useTaskTeams = () => useQuery(teamsQueryOptions());

/** One team with its active members: the assignee choices for a project of that team. */
export const useTaskTeam = (teamId: string | undefined) =>
  useQuery({ ...teamQueryOptions(teamId ?? ''), enabled: Boolean(teamId) });
