/** Query keys of the teams feature. Roots 'teams' and 'invitations' (realtime invalidates by root). */
export const teamKeys = {
  all: ['teams'] as const,
  lists: () => [...teamKeys.all, 'list'] as const,
  list: (q: string) => [...teamKeys.lists(), { q }] as const,
};

export const invitationKeys = {
  all: ['invitations'] as const,
  mine: () => [...invitationKeys.all, 'mine'] as const,
  team: (teamId: string) => [...invitationKeys.all, 'team', teamId] as const,
};
