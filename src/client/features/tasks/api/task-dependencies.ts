import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DependencyListDto } from '../../../../domain/schemas/dependencies';
import type { TaskDto } from '../../../../domain/schemas/task';
import { api } from '../../../lib/api-client';
import { getTaskPage } from '../../../lib/queries/tasks';
import { taskPartKeys } from './get-attachments';
import { invalidateTasks } from './prefetch-board';
import { taskKeys } from './task-keys';

export const dependencyKeys = {
  /** Under the task's detail keys ('tasks' root): realtime events and every task write refresh an open section. */
  of: (taskId: string) => [...taskPartKeys.detail(taskId), 'dependencies'] as const,
  search: (teamId: string, q: string) => [...taskKeys.all, 'dependency-search', teamId, q] as const,
};

export const getDependencies = (taskId: string, signal?: AbortSignal) =>
  api.get<DependencyListDto>(`/api/tasks/${taskId}/dependencies`, { signal });
export const addDependency = (taskId: string, blockedBy: string) =>
  api.post<unknown>(`/api/tasks/${taskId}/dependencies`, { blockedBy });
export const removeDependency = (taskId: string, otherId: string) => api.delete(`/api/tasks/${taskId}/dependencies/${otherId}`);

/** The tasks blocking this one and the tasks it blocks (a task the caller may not see: `{ id: null, hidden: true }`). */
export const dependenciesQueryOptions = (taskId: string) =>
  queryOptions({ queryKey: dependencyKeys.of(taskId), queryFn: ({ signal }) => getDependencies(taskId, signal) });

export const useDependencies = (taskId: string) => useQuery(dependenciesQueryOptions(taskId));

/** How many tasks 'Add dependency' offers for what is typed. */
const SEARCH_LIMIT = 8;

/** The team's tasks whose title matches `q` (the list route's search), for 'Add dependency'. */
export const useDependencySearch = (teamId: string | undefined, q: string) =>
  useQuery<TaskDto[]>({
    queryKey: dependencyKeys.search(teamId ?? '', q),
    queryFn: ({ signal }) => getTaskPage({ teamId, q, limit: SEARCH_LIMIT }, signal).then((a) => a.tasks),
    enabled: Boolean(teamId) && q.trim().length > 0,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

/** Adding a blocker, or removing one ('blockedBy' of this task); the card's 'Blocked' and both tasks' pages follow. */
export function useDependencyChange(taskId: string) {
  const qc = useQueryClient();
  const add = useMutation({
    mutationFn: (blockedBy: string) => addDependency(taskId, blockedBy),
    onSettled: () => invalidateTasks(qc),
  });
  const remove = useMutation({
    mutationFn: ({ taskId: blocked, blockerId }: { taskId: string; blockerId: string }) => removeDependency(blocked, blockerId),
    onSettled: () => invalidateTasks(qc),
  });
  return { add, remove };
}
