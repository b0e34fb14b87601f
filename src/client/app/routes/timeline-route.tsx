import { CalendarFilters } from '../../features/calendar/components/calendar-filters';
import { TimelinePage } from '../../features/timeline/components/timeline-page';

/** /timeline: the page, with the calendar's team and project selects (composed here: a feature does not import another). */
export function TimelineRoute() {
  return <TimelinePage Filters={CalendarFilters} />;
}
