import { useQuery } from '@tanstack/react-query';
import type { ListProjectsQuery } from '../../../../domain/schemas/project';
import { projectsQueryOptions } from '../../../lib/queries/projects';

export const useProjects = (filters: ListProjectsQuery) => useQuery(projectsQueryOptions(filters));
