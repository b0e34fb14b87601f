import type { ListProjectsQuery } from '../../../../domain/schemas/project';

/** The one query-key factory of the projects feature; every key starts with 'projects'. */
export const projectKeys = {
  all: ['projects'] as const,
  lists: () => [...projectKeys.all, 'list'] as const,
  list: (filters: ListProjectsQuery) => [...projectKeys.lists(), filters] as const,
  teamOptions: () => [...projectKeys.all, 'team-options'] as const,
};
