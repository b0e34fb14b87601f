import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProjectDto, UpdateProjectInput } from '../../../../domain/schemas/project';
import { api } from '../../../lib/api-client';
import { projectKeys } from '../../../lib/queries/projects';

export const updateProject = ({ id, ...input }: UpdateProjectInput & { id: string }) =>
  api.patch<ProjectDto>(`/api/projects/${id}`, input);

export function useUpdateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProject,
    onSettled: () => queryClient.invalidateQueries({ queryKey: projectKeys.all }),
  });
}
