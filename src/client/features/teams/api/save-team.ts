import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateTeamInput, TeamDto, UpdateTeamInput } from '../../../../domain/schemas/team';
import { api } from '../../../lib/api-client';
import { teamKeys } from '../../../lib/queries/teams';
import { useCreateMutation } from '../../../lib/use-create-mutation';

export const createTeam = (input: CreateTeamInput) => api.post<TeamDto>('/api/teams', input);
export const updateTeam = (id: string, input: UpdateTeamInput) => api.patch<TeamDto>(`/api/teams/${id}`, input);

export const useCreateTeam = () => useCreateMutation(createTeam, (qc) => qc.invalidateQueries({ queryKey: teamKeys.all }));

export function useUpdateTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdateTeamInput }) => updateTeam(id, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKeys.all }),
  });
}
