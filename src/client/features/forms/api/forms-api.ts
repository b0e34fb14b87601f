import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormDto, FormInput, FormListDto, FormPatch } from '../../../../domain/schemas/outside';
import { api } from '../../../lib/api-client';
import { rootKey } from '../../../lib/query-keys';

/**
 * A project's request forms (issue 40): the settings section's list, under the 'projects' root, so that the
 * `project.updated` event the server sends on form.created/updated/deleted (subscribers/realtime.ts) refreshes it live.
 */
export const formKeys = {
  all: [...rootKey('projects'), 'forms'] as const,
  project: (projectId: string) => [...formKeys.all, 'project', projectId] as const,
};

const projectForms = (projectId: string) => `/api/projects/${encodeURIComponent(projectId)}/forms`;
const formPath = (id: string) => `/api/forms/${encodeURIComponent(id)}`;

/** The body as sent: the schema's defaults filled in (the editor always sends every key). */
export type FormBody = Omit<FormInput, 'open'> & { open: boolean };

export const useProjectForms = (projectId: string) =>
  useQuery({
    queryKey: formKeys.project(projectId),
    queryFn: async ({ signal }) => (await api.get<FormListDto>(projectForms(projectId), { signal })).forms,
  });

/** Every write puts its answer in the list (or takes the form out), then refreshes it. */
function useFormWrite<V>(projectId: string, write: (v: V) => Promise<FormDto | null>, removedId?: (v: V) => string) {
  const queryClient = useQueryClient();
  const key = formKeys.project(projectId);
  return useMutation({
    mutationFn: write,
    onSuccess: (saved, variables) => {
      queryClient.setQueryData<FormDto[]>(key, (list) => {
        if (!list) return list;
        if (!saved) return list.filter((f) => f.id !== removedId?.(variables));
        return list.some((f) => f.id === saved.id) ? list.map((f) => (f.id === saved.id ? saved : f)) : [...list, saved];
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

export const useCreateForm = (projectId: string) =>
  useFormWrite(projectId, (body: FormBody) => api.post<FormDto>(projectForms(projectId), body));

export const useUpdateForm = (projectId: string) =>
  useFormWrite(projectId, ({ id, patch }: { id: string; patch: FormPatch }) => api.patch<FormDto>(formPath(id), patch));

export const useResetForm = (projectId: string) =>
  useFormWrite(projectId, (id: string) => api.post<FormDto>(`${formPath(id)}/reset`));

export const useDeleteForm = (projectId: string) =>
  useFormWrite(
    projectId,
    async (id: string) => {
      await api.delete(formPath(id));
      return null;
    },
    (id) => id,
  );
