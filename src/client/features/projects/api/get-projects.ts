import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ListProjectsQuery, ProjectDto } from '../../../../domain/schemas/project';
import { api } from '../../../lib/api-client';
import { projectKeys } from './project-keys';

export const getProjects = (filters: ListProjectsQuery, signal?: AbortSignal) =>
  api.get<ProjectDto[]>('/api/projects', { query: { ...filters }, signal });

export const projectsQueryOptions = (filters: ListProjectsQuery) =>
  queryOptions({
    queryKey: projectKeys.list(filters),
    queryFn: ({ signal }) => getProjects(filters, signal),
  });

export const useProjects = (filters: ListProjectsQuery) => useQuery(projectsQueryOptions(filters));
