import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CustomFieldDto, CustomFieldListDto } from '../../../domain/schemas/custom-field';
import { api } from '../api-client';

/**
 * Custom field definitions (issue 38): every field of the caller's teams (GET /api/fields: cards, the list's columns
 * and filters, the task page and form) and one team's (GET /api/teams/:id/fields: team settings). Under the 'fields'
 * root, which the realtime `field.*` events refresh.
 */
export const fieldKeys = {
  all: ['fields'] as const,
  mine: () => [...fieldKeys.all, 'mine'] as const,
  team: (teamId: string) => [...fieldKeys.all, 'team', teamId] as const,
  usage: (fieldId: string) => [...fieldKeys.all, 'usage', fieldId] as const,
};

export const getMyFields = async (signal?: AbortSignal): Promise<CustomFieldDto[]> =>
  (await api.get<CustomFieldListDto>('/api/fields', { signal })).fields;

export const getTeamFields = async (teamId: string, signal?: AbortSignal): Promise<CustomFieldDto[]> =>
  (await api.get<CustomFieldListDto>(`/api/teams/${encodeURIComponent(teamId)}/fields`, { signal })).fields;

export const myFieldsQueryOptions = () =>
  queryOptions({ queryKey: fieldKeys.mine(), queryFn: ({ signal }) => getMyFields(signal), staleTime: 60_000 });

/** Every field of the caller's teams, archived ones included (callers filter with domain `fieldAppliesTo`). */
export const useMyFields = () => useQuery(myFieldsQueryOptions());

export const useTeamFields = (teamId: string | null | undefined) =>
  useQuery({
    queryKey: fieldKeys.team(teamId ?? ''),
    queryFn: ({ signal }) => getTeamFields(teamId ?? '', signal),
    enabled: Boolean(teamId),
    staleTime: 60_000,
  });
