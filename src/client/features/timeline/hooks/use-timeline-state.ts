import { useCallback, useMemo } from 'react';
import { localeWeekStart, parseCalendarDate, type Weekday } from '../../../../domain/calendar';
import { localIsoDate } from '../../../../domain/dates';
import { useUrlParams } from '../../../lib/use-url-params';
import { parseZoom, shiftTimelineDate, timelineWindow, type Zoom } from '../timeline-layout';

/** A team or project id as the URL carries it (the calendar checks its own the same way). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const idOrEmpty = (v: string | null) => (v && UUID.test(v) ? v : '');

const weekStartsOn: Weekday = localeWeekStart(typeof navigator === 'undefined' ? undefined : navigator.language);

/**
 * What the timeline shows lives in the URL (?zoom=week|month|quarter&date=YYYY-MM-DD&teamId=&projectId=), so a reload
 * or a shared link shows the same; anything missing or malformed falls back to Month around today, everything visible.
 */
export function useTimelineState() {
  const [params, update] = useUrlParams();
  const today = localIsoDate(new Date());
  const zoom = parseZoom(params.get('zoom'));
  const date = parseCalendarDate(params.get('date')) ?? today;
  const teamId = idOrEmpty(params.get('teamId'));
  const projectId = idOrEmpty(params.get('projectId'));
  const window = useMemo(() => timelineWindow(zoom, date, weekStartsOn), [zoom, date]);

  const setZoom = useCallback((z: Zoom) => update({ zoom: z === 'month' ? null : z }), [update]);
  const go = useCallback((step: number) => update({ date: shiftTimelineDate(zoom, date, step) }), [update, zoom, date]);
  const goToday = useCallback(() => update({ date: null }), [update]);
  const setFilters = useCallback((changes: { teamId?: string | null; projectId?: string | null }) => update(changes), [update]);

  return { zoom, date, today, teamId, projectId, window, weekStartsOn, setZoom, go, goToday, setFilters };
}
