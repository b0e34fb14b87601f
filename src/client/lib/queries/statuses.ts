import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StatusDto, StatusListDto } from '../../../domain/schemas/workflow';
import { api } from '../api-client';
import { projectKeys } from './projects';

/**
 * A project's workflow (GET /api/projects/:id/statuses), shared by the board, the task form, the filters and the
 * project settings page. Under the 'projects' root, so the realtime `status.*` and `project.*` events refresh it.
 */
export const statusKeys = {
  all: () => [...projectKeys.all, 'statuses'] as const,
  of: (projectId: string) => [...statusKeys.all(), projectId] as const,
};

export const getStatuses = async (projectId: string, signal?: AbortSignal): Promise<StatusDto[]> =>
  (await api.get<StatusListDto>(`/api/projects/${encodeURIComponent(projectId)}/statuses`, { signal })).statuses;

/** The project's live statuses in workflow order; none while there is no project. */
export const statusesQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: statusKeys.of(projectId),
    queryFn: ({ signal }) => getStatuses(projectId, signal),
    staleTime: 60_000,
  });

export const useProjectStatuses = (projectId: string | null | undefined) =>
  useQuery({ ...statusesQueryOptions(projectId ?? ''), enabled: Boolean(projectId) });
