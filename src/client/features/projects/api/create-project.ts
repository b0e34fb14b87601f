import type { CreateProjectInput, ProjectDto } from '../../../../domain/schemas/project';
import { api } from '../../../lib/api-client';
import { projectKeys } from '../../../lib/queries/projects';
import { useCreateMutation } from '../../../lib/use-create-mutation';

export const createProject = (input: CreateProjectInput) => api.post<ProjectDto>('/api/projects', input);

export const useCreateProject = () =>
  useCreateMutation(createProject, (qc) => qc.invalidateQueries({ queryKey: projectKeys.all }));
