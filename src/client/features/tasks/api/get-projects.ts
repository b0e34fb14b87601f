import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProjectDto } from '../../../../domain/schemas/project';
import { api } from '../../../lib/api-client';
import { taskKeys } from './task-keys';

/** The caller's projects, for the project filter and the form's project choice. */
export const getProjects = (signal?: AbortSignal) => api.get<ProjectDto[]>('/api/projects', { signal });

export const projectsOptions = () => queryOptions({ queryKey: taskKeys.projects(), queryFn: ({ signal }) => getProjects(signal) });

export const useTaskProjects = () => useQuery(projectsOptions());
