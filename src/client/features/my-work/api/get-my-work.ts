import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TaskDto } from '../../../../domain/schemas/task';
import { getAllTasks } from '../../../lib/queries/tasks';
import { type MyWorkFilter, myWorkKeys } from './my-work-keys';

/** Every open task of the filter in the caller's teams, newest first. */
export const getMyWork = (filter: MyWorkFilter, signal?: AbortSignal): Promise<TaskDto[]> =>
  getAllTasks({ ...filter, open: 'true', sort: 'created', dir: 'desc' }, signal);

export const myWorkQueryOptions = (filter: MyWorkFilter) =>
  queryOptions({ queryKey: myWorkKeys.list(filter), queryFn: ({ signal }) => getMyWork(filter, signal) });

export const useMyWork = (filter: MyWorkFilter, enabled = true) => useQuery({ ...myWorkQueryOptions(filter), enabled });
