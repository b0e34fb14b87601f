import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ShareSettingsDto, ShareSettingsInput } from '../../../../domain/schemas/outside';
import { api } from '../../../lib/api-client';
import { rootKey } from '../../../lib/query-keys';

/** Under the projects root: a project's change (realtime, `share.changed` too) refreshes its link's settings. */
export const shareKeys = {
  all: [...rootKey('projects'), 'share'] as const,
  settings: (projectId: string) => [...shareKeys.all, projectId] as const,
};

const base = (projectId: string) => `/api/projects/${encodeURIComponent(projectId)}/share`;

export const shareSettingsQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: shareKeys.settings(projectId),
    queryFn: ({ signal }) => api.get<ShareSettingsDto>(base(projectId), { signal }),
  });

export const useShareSettings = (projectId: string, enabled = true) =>
  useQuery({ ...shareSettingsQueryOptions(projectId), enabled });

/** The answer is the settings as they are now: written straight into the cache. */
function useShareMutation<V>(projectId: string, send: (vars: V) => Promise<ShareSettingsDto>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (settings) => queryClient.setQueryData(shareKeys.settings(projectId), settings),
    onError: () => queryClient.invalidateQueries({ queryKey: shareKeys.settings(projectId) }),
  });
}

export const useSaveShare = (projectId: string) =>
  useShareMutation(projectId, (input: ShareSettingsInput) => api.put<ShareSettingsDto>(base(projectId), input));

export const useResetShare = (projectId: string) =>
  useShareMutation(projectId, () => api.post<ShareSettingsDto>(`${base(projectId)}/reset`));
