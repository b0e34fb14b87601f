import { useQuery } from '@tanstack/react-query';
import { projectsQueryOptions } from '../../../lib/queries/projects';

/** The caller's projects, for the project filter and the form's project choice. */
export const useTaskProjects = () => useQuery(projectsQueryOptions());
