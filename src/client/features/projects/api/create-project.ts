import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LIMITS } from '../../../../domain/constants';
import type { CreateProjectInput, ProjectDto } from '../../../../domain/schemas/project';
import { api } from '../../../lib/api-client';
import { projectKeys } from '../../../lib/queries/projects';

export const createProject = (input: CreateProjectInput) => api.post<ProjectDto>('/api/projects', input);

export function useCreateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProject,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.all });
      // Spec §4 'Data loading': about a second after each create, a full refetch.
      setTimeout(() => void queryClient.invalidateQueries(), LIMITS.refetchAfterCreateMs);
    },
  });
}
