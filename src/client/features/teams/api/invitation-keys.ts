import { rootKey } from '../../../lib/query-keys';

/** Query keys of invitations (the teams' own keys are shared: lib/queries/teams.ts). */
export const invitationKeys = {
  all: rootKey('invitations'),
  mine: () => [...invitationKeys.all, 'mine'] as const,
  team: (teamId: string) => [...invitationKeys.all, 'team', teamId] as const,
};
