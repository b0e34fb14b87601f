import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InvitationRole } from '../../../../domain/constants';
import type { TeamMemberDto } from '../../../../domain/schemas/team';
import { api } from '../../../lib/api-client';
import { teamKeys } from '../../../lib/queries/teams';
import { invitationKeys } from './invitation-keys';

export const changeMemberRole = (teamId: string, memberId: string, role: InvitationRole) =>
  api.patch<TeamMemberDto>(`/api/teams/${teamId}/members/${memberId}`, { role });
export const removeMember = (teamId: string, memberId: string) => api.delete(`/api/teams/${teamId}/members/${memberId}`);

export function useChangeMemberRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ teamId, memberId, role }: { teamId: string; memberId: string; role: InvitationRole }) =>
      changeMemberRole(teamId, memberId, role),
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKeys.all }),
  });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ teamId, memberId }: { teamId: string; memberId: string }) => removeMember(teamId, memberId),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: teamKeys.all }),
        queryClient.invalidateQueries({ queryKey: invitationKeys.all }),
      ]),
  });
}
