import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreateSavedViewInput,
  SavedViewDto,
  SavedViewListDto,
  UpdateSavedViewInput,
} from '../../../../domain/schemas/saved-view';
import { api } from '../../../lib/api-client';
import { useAuthStore } from '../../../stores/auth-store';
import { viewSearch } from '../view-url';

/** The saved views' query keys. */
export const savedViewKeys = {
  all: ['savedViews'] as const,
  list: () => [...savedViewKeys.all, 'list'] as const,
};

/** My personal views and the views shared with my teams. */
export const getSavedViews = (signal?: AbortSignal) => api.get<SavedViewListDto>('/api/views', { signal });

export const savedViewsQueryOptions = () =>
  queryOptions({
    queryKey: savedViewKeys.list(),
    queryFn: ({ signal }) => getSavedViews(signal),
    select: (data) => data.views,
  });

/** The views, fetched only once something shows them (the menu opened, a view applied, the palette). */
export const useSavedViews = (enabled: boolean) => useQuery({ ...savedViewsQueryOptions(), enabled });

export const createSavedView = (input: CreateSavedViewInput) => api.post<SavedViewDto>('/api/views', input);
export const updateSavedView = ({ id, input }: { id: string; input: UpdateSavedViewInput }) =>
  api.patch<SavedViewDto>(`/api/views/${id}`, input);
export const deleteSavedView = (id: string) => api.delete(`/api/views/${id}`);

function useViewMutation<TInput, TData>(mutationFn: (input: TInput) => Promise<TData>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => qc.invalidateQueries({ queryKey: savedViewKeys.all }) });
}

export const useCreateSavedView = () => useViewMutation(createSavedView);
export const useUpdateSavedView = () => useViewMutation(updateSavedView);
export const useDeleteSavedView = () => useViewMutation(deleteSavedView);

/** Who a view is for, in a line: 'Only me', the team I share it with, or its owner and team. */
export const sharingText = (view: SavedViewDto, myId: string | undefined) =>
  view.teamId === null
    ? 'Only me'
    : view.ownerId === myId
      ? `Shared with ${view.teamName}`
      : `${view.ownerName} · ${view.teamName}`;

/** The views as the command palette lists them. */
export function usePaletteViews(enabled: boolean) {
  const myId = useAuthStore((s) => s.user?.id);
  const views = useSavedViews(enabled);
  return {
    views: views.data?.map((v) => ({ id: v.id, name: v.name, detail: sharingText(v, myId), search: viewSearch(v.config, v.id) })),
    isError: views.isError,
  };
}
