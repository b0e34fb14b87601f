import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AddProjectGuestInput, ProjectGuestDto } from '../../../../domain/schemas/team';
import { api } from '../../../lib/api-client';
import { projectKeys } from '../../../lib/queries/projects';

type ProjectGuestList = { guests: ProjectGuestDto[] };

/** A project's guests (issue 41), under the projects root: a guest added or removed changes what the guest's lists show. */
export const projectGuestKeys = {
  all: [...projectKeys.all, 'guests'] as const,
  list: (projectId: string) => [...projectGuestKeys.all, projectId] as const,
};

export const getProjectGuests = (projectId: string, signal?: AbortSignal) =>
  api.get<ProjectGuestList>(`/api/projects/${projectId}/guests`, { signal });

export const projectGuestsQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: projectGuestKeys.list(projectId),
    queryFn: ({ signal }) => getProjectGuests(projectId, signal),
  });

/** The project's guests, for its owner and admins (others are refused by the server, so they do not ask). */
export const useProjectGuests = (projectId: string, enabled: boolean) =>
  useQuery({ ...projectGuestsQueryOptions(projectId), enabled });

export const addProjectGuest = (projectId: string, input: AddProjectGuestInput) =>
  api.post<ProjectGuestDto>(`/api/projects/${projectId}/guests`, input);
export const removeProjectGuest = (projectId: string, userId: string) =>
  api.delete(`/api/projects/${projectId}/guests/${userId}`);

export function useAddProjectGuest(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: AddProjectGuestInput) => addProjectGuest(projectId, input),
    onSettled: () => qc.invalidateQueries({ queryKey: projectGuestKeys.list(projectId) }),
  });
}

export function useRemoveProjectGuest(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => removeProjectGuest(projectId, userId),
    onSettled: () => qc.invalidateQueries({ queryKey: projectGuestKeys.list(projectId) }),
  });
}
