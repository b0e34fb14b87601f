import { queryOptions } from '@tanstack/react-query';
import type { TeamDto } from '../../../domain/schemas/team';
import { api } from '../api-client';
import { rootKey } from '../query-keys';

/**
 * GET /api/teams and /api/teams/:id, shared by every feature that shows teams (the teams page, the
 * projects' team dropdowns, the tasks' assignee choices): one cache entry per request, each view
 * derived from it with `select`.
 */
export const teamKeys = {
  all: rootKey('teams'),
  lists: () => [...teamKeys.all, 'list'] as const,
  list: (q: string) => [...teamKeys.lists(), { q }] as const,
  details: () => [...teamKeys.all, 'detail'] as const,
  detail: (teamId: string) => [...teamKeys.details(), teamId] as const,
};

/** My teams with their active members, newest first; `q` filters on the server by name or description. */
export const getTeams = (q = '', signal?: AbortSignal) => api.get<TeamDto[]>('/api/teams', { query: { q }, signal });

export const teamsQueryOptions = (q = '') =>
  queryOptions({ queryKey: teamKeys.list(q), queryFn: ({ signal }) => getTeams(q, signal) });

/** One team with its active members. */
export const getTeam = (teamId: string, signal?: AbortSignal) => api.get<TeamDto>(`/api/teams/${teamId}`, { signal });

export const teamQueryOptions = (teamId: string) =>
  queryOptions({ queryKey: teamKeys.detail(teamId), queryFn: ({ signal }) => getTeam(teamId, signal) });
