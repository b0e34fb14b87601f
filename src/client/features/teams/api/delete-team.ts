import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const deleteTeam = (id: string) => api.delete(`/api/teams/${id}`);
export const leaveTeam = (id: string) => api.post<void>(`/api/teams/${id}/leave`);

/** Deleting or leaving a team changes projects, tasks and the dashboard too: refetch everything. */
export function useDeleteTeam() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteTeam, onSuccess: () => queryClient.invalidateQueries() });
}

export function useLeaveTeam() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: leaveTeam, onSuccess: () => queryClient.invalidateQueries() });
}
