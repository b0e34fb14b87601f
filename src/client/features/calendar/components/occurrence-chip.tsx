import { Repeat } from 'lucide-react';
import { Link } from 'react-router';
import type { OccurrenceDto } from '../../../../domain/schemas/repeat';
import { cn } from '../../../lib/cn';
import type { ChipSize } from './task-chip';

/** What a future occurrence is called, after its title (its name for screen readers: 'Weekly report (repeats)'). */
export const OCCURRENCE_SUFFIX = '(repeats)';
export const OCCURRENCE_HINT = 'A future date of a repeating task, not created yet';

/** The faded look of a date a repeating task will have: dashed, untinted, the repeat icon (shared with the legend). */
export const occurrenceLook =
  'border-dashed border-slate-300 bg-white/60 text-slate-600 dark:border-slate-600 dark:bg-slate-900/40 dark:text-slate-300';

/**
 * A repeating task's future date (issue 39): faded, not draggable (it is no task yet), a link to the repeating task
 * (the series' newest), whose page says how it repeats.
 */
export function OccurrenceChip({ occurrence, size }: { occurrence: OccurrenceDto; size: ChipSize }) {
  return (
    <Link
      to={`/tasks/${occurrence.taskId}`}
      // Closing the task goes back here (the task page treats it as opened from its board).
      state={{ fromBoard: true }}
      title={`${occurrence.title} — ${OCCURRENCE_HINT}`}
      data-testid="calendar-occurrence"
      data-task-id={occurrence.taskId}
      data-date={occurrence.date}
      className={cn(
        'flex w-full min-w-0 items-center gap-1 rounded-md border text-left text-xs outline-none hover:border-brand-600 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-1 dark:focus-visible:ring-offset-slate-900',
        size === 'compact' ? 'px-1.5 py-1' : 'px-2 py-1.5',
        occurrenceLook,
      )}
    >
      <Repeat className="h-3.5 w-3.5 shrink-0" aria-hidden />
      <span className={cn('min-w-0 flex-1 italic', size === 'compact' ? 'truncate' : 'line-clamp-3 break-words')}>
        {occurrence.title}
      </span>
      <span className="sr-only"> {OCCURRENCE_SUFFIX}</span>
    </Link>
  );
}
