import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LIMITS } from '../../../../domain/constants';
import type { CreateTeamInput, TeamDto, UpdateTeamInput } from '../../../../domain/schemas/team';
import { api } from '../../../lib/api-client';
import { teamKeys } from '../../../lib/queries/teams';

export const createTeam = (input: CreateTeamInput) => api.post<TeamDto>('/api/teams', input);
export const updateTeam = (id: string, input: UpdateTeamInput) => api.patch<TeamDto>(`/api/teams/${id}`, input);

export function useCreateTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTeam,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: teamKeys.all });
      // About a second after a create, everything is refetched (spec §4 'Data loading').
      setTimeout(() => void queryClient.invalidateQueries(), LIMITS.refetchAfterCreateMs);
    },
  });
}

export function useUpdateTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdateTeamInput }) => updateTeam(id, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKeys.all }),
  });
}
