import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { IntakeDto, IntakeInput } from '../../../../domain/schemas/outside';
import { api } from '../../../lib/api-client';
import { rootKey } from '../../../lib/query-keys';

/** Under the projects root: a project's change (realtime, `intake.changed` too) refreshes its intake address. */
export const intakeKeys = {
  all: [...rootKey('projects'), 'intake'] as const,
  address: (projectId: string) => [...intakeKeys.all, projectId] as const,
};

const base = (projectId: string) => `/api/projects/${encodeURIComponent(projectId)}/intake`;

export const intakeQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: intakeKeys.address(projectId),
    queryFn: ({ signal }) => api.get<IntakeDto>(base(projectId), { signal }),
  });

export const useIntake = (projectId: string, enabled = true) => useQuery({ ...intakeQueryOptions(projectId), enabled });

/** The answer is the address as it is now: written straight into the cache. */
function useIntakeMutation<V>(projectId: string, send: (vars: V) => Promise<IntakeDto>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (intake) => queryClient.setQueryData(intakeKeys.address(projectId), intake),
    onError: () => queryClient.invalidateQueries({ queryKey: intakeKeys.address(projectId) }),
  });
}

export const useSetIntake = (projectId: string) =>
  useIntakeMutation(projectId, (input: IntakeInput) => api.post<IntakeDto>(base(projectId), input));

export const useResetIntake = (projectId: string) =>
  useIntakeMutation(projectId, () => api.post<IntakeDto>(`${base(projectId)}/reset`));
