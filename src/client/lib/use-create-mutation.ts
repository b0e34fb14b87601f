import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { LIMITS } from '../../domain/constants';

/**
 * The mutation of a create: on success `invalidate` refreshes what shows the new item at once, and about a
 * second later everything is refetched (spec §4 'Data loading').
 */
export function useCreateMutation<TInput, TData>(
  mutationFn: (input: TInput) => Promise<TData>,
  invalidate: (queryClient: QueryClient) => Promise<unknown>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => {
      void invalidate(queryClient);
      setTimeout(() => void queryClient.invalidateQueries(), LIMITS.refetchAfterCreateMs);
    },
  });
}
