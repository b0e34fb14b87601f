import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InvitationDto, InviteInput } from '../../../../domain/schemas/team';
import { api } from '../../../lib/api-client';
import { invitationKeys } from './invitation-keys';

export const getTeamInvitations = (teamId: string, signal?: AbortSignal) =>
  api.get<InvitationDto[]>(`/api/teams/${teamId}/invitations`, { signal });
export const inviteMember = (teamId: string, input: InviteInput) =>
  api.post<InvitationDto>(`/api/teams/${teamId}/invitations`, input);
export const cancelInvitation = (invitationId: string) => api.delete(`/api/invitations/${invitationId}`);

export const teamInvitationsQueryOptions = (teamId: string) =>
  queryOptions({ queryKey: invitationKeys.team(teamId), queryFn: ({ signal }) => getTeamInvitations(teamId, signal) });

/** Pending invitations of a team (owner and admins only, so `enabled` follows the role). */
export function useTeamInvitations(teamId: string, enabled: boolean) {
  return useQuery({ ...teamInvitationsQueryOptions(teamId), enabled });
}

export function useInviteMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ teamId, input }: { teamId: string; input: InviteInput }) => inviteMember(teamId, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: invitationKeys.all }),
  });
}

export function useCancelInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelInvitation,
    onSettled: () => queryClient.invalidateQueries({ queryKey: invitationKeys.all }),
  });
}
