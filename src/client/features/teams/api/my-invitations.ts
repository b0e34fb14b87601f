import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InvitationDto, MyInvitationsDto } from '../../../../domain/schemas/team';
import { api } from '../../../lib/api-client';
import { invitationKeys } from './invitation-keys';

export const getMyInvitations = (signal?: AbortSignal) => api.get<MyInvitationsDto>('/api/invitations', { signal });
export const respondToInvitation = (invitationId: string, accept: boolean) =>
  api.post<InvitationDto>(`/api/invitations/${invitationId}/respond`, { accept });

export const myInvitationsQueryOptions = () =>
  queryOptions({ queryKey: invitationKeys.mine(), queryFn: ({ signal }) => getMyInvitations(signal) });

/** Invitations addressed to me, and the ones I sent that are still pending. */
export function useMyInvitations() {
  return useQuery(myInvitationsQueryOptions());
}

export function useRespondToInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, accept }: { id: string; accept: boolean }) => respondToInvitation(id, accept),
    // Accepting adds a team, its projects and tasks: refresh everything.
    onSettled: () => queryClient.invalidateQueries(),
  });
}
