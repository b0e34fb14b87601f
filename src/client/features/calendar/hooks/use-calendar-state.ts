import { useCallback, useMemo } from 'react';
import {
  type CalendarView,
  calendarRange,
  localeWeekStart,
  parseCalendarDate,
  parseCalendarView,
  shiftDate,
  type Weekday,
} from '../../../../domain/calendar';
import { localIsoDate } from '../../../../domain/dates';
import { useUrlParams } from '../../../lib/use-url-params';

/** A team or project id as the URL carries it (the Tasks page checks its `project` the same way). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const idOrEmpty = (v: string | null) => (v && UUID.test(v) ? v : '');

/** The viewer's first day of the week, from the browser's locale (Monday when it does not say). */
const weekStartsOn: Weekday = localeWeekStart(typeof navigator === 'undefined' ? undefined : navigator.language);

/**
 * What the calendar shows lives in the URL (?view=month|week&date=YYYY-MM-DD&teamId=&projectId=), so a reload or a
 * shared link shows the same; anything missing or malformed falls back to this month, all teams and projects.
 */
export function useCalendarState() {
  const [params, update] = useUrlParams();
  const today = localIsoDate(new Date());
  const view = parseCalendarView(params.get('view'));
  const date = parseCalendarDate(params.get('date')) ?? today;
  const teamId = idOrEmpty(params.get('teamId'));
  const projectId = idOrEmpty(params.get('projectId'));
  const range = useMemo(() => calendarRange(view, date, weekStartsOn), [view, date]);

  const setView = useCallback((v: CalendarView) => update({ view: v === 'month' ? null : v }), [update]);
  const go = useCallback((step: number) => update({ date: shiftDate(view, date, step) }), [update, view, date]);
  const goToday = useCallback(() => update({ date: null }), [update]);
  const setFilters = useCallback((changes: { teamId?: string | null; projectId?: string | null }) => update(changes), [update]);

  return { view, date, today, teamId, projectId, range, weekStartsOn, setView, go, goToday, setFilters };
}
