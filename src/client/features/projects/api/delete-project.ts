import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const deleteProject = (id: string) => api.delete(`/api/projects/${id}`);

export function useDeleteProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProject,
    // Tasks of the project go with it: refresh everything that may show them.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
