import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InvitationDto, MyInvitationsDto } from '../../../../domain/schemas/team';
import { api } from '../../../lib/api-client';
import { invitationKeys } from './invitation-keys';

export const getMyInvitations = (signal?: AbortSignal) => api.get<MyInvitationsDto>('/api/invitations', { signal });
/** `proof`: the one the invitation's emailed link carried (it proves the invited address). */
export const respondToInvitation = (invitationId: string, accept: boolean, proof?: string) =>
  api.post<InvitationDto>(`/api/invitations/${invitationId}/respond`, { accept, ...(proof && { proof }) });

export const myInvitationsQueryOptions = () =>
  queryOptions({ queryKey: invitationKeys.mine(), queryFn: ({ signal }) => getMyInvitations(signal) });

/** Invitations addressed to me, and the ones I sent that are still pending. */
export function useMyInvitations() {
  return useQuery(myInvitationsQueryOptions());
}

export function useRespondToInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, accept, proof }: { id: string; accept: boolean; proof?: string }) =>
      respondToInvitation(id, accept, proof),
    // Accepting adds a team, its projects and tasks: refresh everything.
    onSettled: () => queryClient.invalidateQueries(),
  });
}
