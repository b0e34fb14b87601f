import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreateCustomFieldInput,
  CustomFieldDto,
  CustomFieldUsageDto,
  UpdateCustomFieldInput,
} from '../../../../domain/schemas/custom-field';
import { api } from '../../../lib/api-client';
import { fieldKeys } from '../../../lib/queries/custom-fields';
import { rootKey } from '../../../lib/query-keys';

const fieldPath = (fieldId: string) => `/api/fields/${encodeURIComponent(fieldId)}`;

/** 'Add field': after the team's last one. */
export const createField = (teamId: string, input: CreateCustomFieldInput) =>
  api.post<CustomFieldDto>(`/api/teams/${encodeURIComponent(teamId)}/fields`, input);

/** A rename, new options (the whole list: one left out is removed, its values cleared), projects, 'Show on card', archive. */
export const updateField = (fieldId: string, input: UpdateCustomFieldInput) =>
  api.patch<CustomFieldDto>(fieldPath(fieldId), input);

/** The field and its values on every task. */
export const deleteField = (fieldId: string) => api.delete(fieldPath(fieldId));

/** How many tasks have a value, and each option (the confirmations of a delete and of removing options). */
export const getFieldUsage = (fieldId: string, signal?: AbortSignal) =>
  api.get<CustomFieldUsageDto>(`${fieldPath(fieldId)}/usage`, { signal });

/** Fresh counts each time a confirmation asks (they change with every task edit). */
export const fetchFieldUsage = (queryClient: QueryClient, fieldId: string) =>
  queryClient.fetchQuery({
    queryKey: fieldKeys.usage(fieldId),
    queryFn: ({ signal }) => getFieldUsage(fieldId, signal),
    staleTime: 0,
  });

export const useFieldUsage = (fieldId: string) =>
  useQuery({ queryKey: fieldKeys.usage(fieldId), queryFn: ({ signal }) => getFieldUsage(fieldId, signal), staleTime: 0 });

/**
 * Every write refreshes every field list (the team's, and every team's for cards and the list) and the tasks (their
 * values, cleared by a removed option or a deleted field; the columns and cards that show them).
 */
function useSettle() {
  const queryClient = useQueryClient();
  return {
    queryClient,
    settle: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: fieldKeys.all }),
        queryClient.invalidateQueries({ queryKey: rootKey('tasks') }),
      ]),
  };
}

export function useCreateField(teamId: string) {
  const { settle } = useSettle();
  return useMutation({ mutationFn: (input: CreateCustomFieldInput) => createField(teamId, input), onSettled: settle });
}

export function useUpdateField(teamId: string) {
  const { queryClient, settle } = useSettle();
  return useMutation({
    mutationFn: ({ fieldId, input }: { fieldId: string; input: UpdateCustomFieldInput }) => updateField(fieldId, input),
    onSuccess: (saved) =>
      queryClient.setQueryData<CustomFieldDto[]>(fieldKeys.team(teamId), (list) =>
        list?.map((f) => (f.id === saved.id ? saved : f)),
      ),
    onSettled: settle,
  });
}

export function useDeleteField(teamId: string) {
  const { queryClient, settle } = useSettle();
  return useMutation({
    mutationFn: (fieldId: string) => deleteField(fieldId),
    onSuccess: (_answer, fieldId) =>
      queryClient.setQueryData<CustomFieldDto[]>(fieldKeys.team(teamId), (list) => list?.filter((f) => f.id !== fieldId)),
    onSettled: settle,
  });
}
