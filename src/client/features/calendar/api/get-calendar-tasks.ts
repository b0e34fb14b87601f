import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TaskDto } from '../../../../domain/schemas/task';
import { getAllTasks } from '../../../lib/queries/tasks';
import { type CalendarQuery, calendarKeys } from './calendar-keys';

/**
 * Every task due in the shown days or spanning into them (spanFrom/spanTo: start to due overlaps them), with the
 * teamId and projectId filters, ordered by due date.
 */
export const getCalendarTasks = (q: CalendarQuery, signal?: AbortSignal): Promise<TaskDto[]> =>
  getAllTasks({ spanFrom: q.from, spanTo: q.to, teamId: q.teamId, projectId: q.projectId, sort: 'due', dir: 'asc' }, signal);

export const calendarTasksOptions = (q: CalendarQuery) =>
  queryOptions({
    queryKey: calendarKeys.range(q),
    queryFn: ({ signal }) => getCalendarTasks(q, signal),
  });

/** The shown range's tasks; while the next range loads, the previous one's stay (their days are not shown). */
export const useCalendarTasks = (q: CalendarQuery) => useQuery({ ...calendarTasksOptions(q), placeholderData: keepPreviousData });
