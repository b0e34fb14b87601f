import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TeamDto } from '../../../../domain/schemas/team';
import { api } from '../../../lib/api-client';
import { teamKeys } from '../../../lib/queries/teams';

/** The owner makes another member the owner (and becomes an admin). */
export const transferOwnership = (teamId: string, memberId: string) =>
  api.post<TeamDto>(`/api/teams/${teamId}/transfer-ownership`, { memberId });

export function useTransferOwnership() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ teamId, memberId }: { teamId: string; memberId: string }) => transferOwnership(teamId, memberId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKeys.all }),
  });
}
