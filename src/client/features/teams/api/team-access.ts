import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TeamDto, UpdateTeamAccessInput } from '../../../../domain/schemas/team';
import { api } from '../../../lib/api-client';
import { teamKeys } from '../../../lib/queries/teams';

/** PATCH /api/teams/:id/access (issue 41): whether viewers may comment, whether the team requires single sign-on. */
export const updateTeamAccess = (teamId: string, input: UpdateTeamAccessInput) =>
  api.patch<TeamDto>(`/api/teams/${teamId}/access`, input);

export function useUpdateTeamAccess() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ teamId, input }: { teamId: string; input: UpdateTeamAccessInput }) => updateTeamAccess(teamId, input),
    onSettled: () => qc.invalidateQueries({ queryKey: teamKeys.all }),
  });
}
