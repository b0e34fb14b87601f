import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InvitationDto, MyInvitationsDto, MyInvitationsQuery } from '../../../../domain/schemas/team';
import { api } from '../../../lib/api-client';
import { invitationKeys } from './invitation-keys';

/**
 * `link`: the invitation and proof of the emailed link the page was opened from. With EMAIL_VERIFICATION=required an
 * unverified address is shown only the invitation its link proves.
 */
export const getMyInvitations = (signal?: AbortSignal, link?: MyInvitationsQuery) => {
  const query =
    link?.invitation && link.proof ? `?${new URLSearchParams({ invitation: link.invitation, proof: link.proof })}` : '';
  return api.get<MyInvitationsDto>(`/api/invitations${query}`, { signal });
};
/** `proof`: the one the invitation's emailed link carried (it proves the invited address). */
export const respondToInvitation = (invitationId: string, accept: boolean, proof?: string) =>
  api.post<InvitationDto>(`/api/invitations/${invitationId}/respond`, { accept, ...(proof && { proof }) });

export const myInvitationsQueryOptions = (link?: MyInvitationsQuery) =>
  queryOptions({
    queryKey: link?.invitation ? [...invitationKeys.mine(), link.invitation] : invitationKeys.mine(),
    queryFn: ({ signal }) => getMyInvitations(signal, link),
  });

/** Invitations addressed to me (`link`: the emailed link's, see getMyInvitations), and the ones I sent still pending. */
export function useMyInvitations(link?: MyInvitationsQuery) {
  return useQuery(myInvitationsQueryOptions(link));
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
