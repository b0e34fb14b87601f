import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { OccurrenceDto, OccurrenceListDto } from '../../../../domain/schemas/repeat';
import { api } from '../../../lib/api-client';
import { type CalendarQuery, calendarKeys } from './calendar-keys';

/**
 * GET /api/tasks/occurrences: the dates repeating tasks will have in the shown days, not made yet, with the filters (a
 * project is within its team: the route takes one or the other).
 */
export const getOccurrences = (q: CalendarQuery, signal?: AbortSignal): Promise<OccurrenceDto[]> =>
  api
    .get<OccurrenceListDto>('/api/tasks/occurrences', {
      query: { from: q.from, to: q.to, ...(q.projectId ? { projectId: q.projectId } : { teamId: q.teamId }) },
      signal,
    })
    .then((answer) => answer.occurrences);

export const occurrencesOptions = (q: CalendarQuery) =>
  queryOptions({
    queryKey: calendarKeys.occurrences(q),
    queryFn: ({ signal }) => getOccurrences(q, signal),
  });

/** The shown range's future occurrences; while the next range's load, the previous ones stay (their days are not shown). */
export const useOccurrences = (q: CalendarQuery) => useQuery({ ...occurrencesOptions(q), placeholderData: keepPreviousData });
