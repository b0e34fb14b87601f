import { Repeat } from 'lucide-react';
import type { ReactNode } from 'react';
import { TASK_PRIORITIES, TASK_PRIORITY_LABELS, TASK_STATUSES } from '../../../../domain/constants';
import { PriorityIcon, StatusIcon, statusText, statusTint } from '../../../components/task-visuals';
import { cn } from '../../../lib/cn';
import { OCCURRENCE_HINT, occurrenceLook } from './occurrence-chip';

/** What the colours and icons mean, under the grid. */
export function CalendarLegend() {
  return (
    <div className="mt-3 flex flex-wrap gap-x-6 gap-y-2 text-xs text-slate-600 dark:text-slate-300">
      <LegendGroup id="calendar-legend-status" title="Status:" listClassName="gap-2">
        {TASK_STATUSES.map((s) => (
          <li key={s} className={cn('inline-flex items-center gap-1 rounded border px-1.5 py-0.5', statusTint(s))}>
            <StatusIcon status={s} />
            {statusText(s)}
          </li>
        ))}
      </LegendGroup>
      <LegendGroup id="calendar-legend-priority" title="Priority:" listClassName="gap-3">
        {TASK_PRIORITIES.map((p) => (
          <li key={p} className="inline-flex items-center gap-1">
            <PriorityIcon priority={p} />
            {TASK_PRIORITY_LABELS[p]}
          </li>
        ))}
      </LegendGroup>
      <LegendGroup id="calendar-legend-repeat" title="Faded:" listClassName="gap-2">
        <li className={cn('inline-flex items-center gap-1 rounded border px-1.5 py-0.5 italic', occurrenceLook)}>
          <Repeat className="h-3.5 w-3.5" aria-hidden />
          {OCCURRENCE_HINT}
        </li>
      </LegendGroup>
    </div>
  );
}

/** A titled list of the legend's entries, named by its title. */
function LegendGroup({
  id,
  title,
  listClassName,
  children,
}: {
  id: string;
  title: string;
  listClassName: string;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span id={id} className="font-medium">
        {title}
      </span>
      <ul aria-labelledby={id} className={cn('flex flex-wrap items-center', listClassName)}>
        {children}
      </ul>
    </div>
  );
}
