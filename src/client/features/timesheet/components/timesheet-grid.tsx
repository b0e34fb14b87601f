import { Link } from 'react-router';
import { formatDuration } from '../../../../domain/durations';
import type { TimeEntryDto } from '../../../../domain/schemas/time';
import { cn } from '../../../lib/cn';
import { type CellEdit, dayLabels, type TimesheetGrid as Grid } from '../timesheet-data';
import { TEXT } from '../timesheet-text';
import { TimesheetCell } from './timesheet-cell';

export interface TimesheetGridProps {
  grid: Grid;
  days: string[];
  today: string;
  caption: string;
  canCreate: boolean;
  canEdit: (entry: TimeEntryDto) => boolean;
  onEdit: (taskId: string, date: string, what: string, edit: Exclude<CellEdit, { kind: 'none' | 'invalid' }>) => Promise<void>;
  onInvalid: (message: string | null) => void;
}

// The task column stays in view while a narrow screen scrolls the days sideways.
const stickyCell = 'sticky left-0 z-10 bg-white dark:bg-slate-900';
const headCell = 'px-2 py-2 text-right text-xs font-semibold text-slate-700 dark:text-slate-200';
const todayCell = 'bg-brand-50 dark:bg-slate-800';

/** The week as a table: a row per task, a column per day, totals per task (last column) and per day (last row). */
export function TimesheetGrid({ grid, days, today, caption, canCreate, canEdit, onEdit, onInvalid }: TimesheetGridProps) {
  const labels = days.map(dayLabels);
  return (
    <section
      aria-label={caption}
      className="overflow-x-auto rounded-xl border border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900"
    >
      <table className="w-full min-w-[46rem] border-collapse text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-200 dark:border-slate-700">
            <th
              scope="col"
              className={cn(
                stickyCell,
                'min-w-[12rem] px-3 py-2 text-left text-xs font-semibold text-slate-700 dark:text-slate-200',
              )}
            >
              {TEXT.task}
            </th>
            {days.map((day, i) => (
              <th key={day} scope="col" className={cn(headCell, day === today && todayCell)}>
                <abbr title={labels[i]!.long} className="no-underline">
                  <span className="block">{labels[i]!.short}</span>
                  <span className="block font-normal text-slate-600 dark:text-slate-300">{labels[i]!.date}</span>
                </abbr>
              </th>
            ))}
            <th scope="col" className={cn(headCell, 'pr-3')}>
              {TEXT.total}
            </th>
          </tr>
        </thead>
        <tbody>
          {grid.rows.map((row) => (
            <tr key={row.taskId} className="border-b border-slate-100 dark:border-slate-800">
              <th scope="row" className={cn(stickyCell, 'max-w-[16rem] px-3 py-1.5 text-left font-normal')}>
                <Link
                  to={`/tasks/${row.taskId}`}
                  className="block truncate font-medium text-slate-900 hover:underline dark:text-slate-100"
                  title={row.title}
                >
                  {row.title}
                </Link>
                <span className="block truncate text-xs text-slate-600 dark:text-slate-300">{row.projectName}</span>
              </th>
              {days.map((day, i) => {
                const entries = row.cells[i]!;
                const label = `${row.title}, ${labels[i]!.long}`;
                return (
                  <td key={day} className={cn('px-1 py-1', day === today && todayCell)}>
                    <TimesheetCell
                      entries={entries}
                      label={label}
                      canCreate={canCreate}
                      canEdit={entries.length === 1 && canEdit(entries[0]!)}
                      isToday={day === today}
                      onEdit={(edit) => onEdit(row.taskId, day, label, edit)}
                      onInvalid={onInvalid}
                    />
                  </td>
                );
              })}
              <td className="whitespace-nowrap px-3 py-1.5 text-right font-semibold tabular-nums" data-testid="task-total">
                {formatDuration(row.total)}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr className="border-t-2 border-slate-200 dark:border-slate-700">
            <th scope="row" className={cn(stickyCell, 'px-3 py-2 text-left font-semibold')}>
              {TEXT.dayTotal}
            </th>
            {days.map((day, i) => (
              <td
                key={day}
                className={cn('whitespace-nowrap px-3 py-2 text-right font-semibold tabular-nums', day === today && todayCell)}
                data-testid="day-total"
              >
                {formatDuration(grid.dayTotals[i]!)}
              </td>
            ))}
            <td className="whitespace-nowrap px-3 py-2 text-right font-bold tabular-nums" data-testid="week-total">
              <span className="sr-only">{TEXT.total}: </span>
              {formatDuration(grid.total)}
            </td>
          </tr>
        </tfoot>
      </table>
    </section>
  );
}
