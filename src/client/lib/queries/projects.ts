import { queryOptions } from '@tanstack/react-query';
import type { ListProjectsQuery, ProjectDto } from '../../../domain/schemas/project';
import { api } from '../api-client';
import { rootKey } from '../query-keys';

/**
 * GET /api/projects, shared by the projects page and the tasks' project filter and form: the unfiltered
 * list is one cache entry for both.
 */
export const projectKeys = {
  all: rootKey('projects'),
  lists: () => [...projectKeys.all, 'list'] as const,
  list: (filters: ListProjectsQuery) => [...projectKeys.lists(), filters] as const,
};

export const getProjects = (filters: ListProjectsQuery, signal?: AbortSignal) =>
  api.get<ProjectDto[]>('/api/projects', { query: { ...filters }, signal });

/** My projects, newest first, filtered on the server (no filters: all of them). */
export const projectsQueryOptions = (filters: ListProjectsQuery = {}) =>
  queryOptions({
    queryKey: projectKeys.list(filters),
    queryFn: ({ signal }) => getProjects(filters, signal),
  });
