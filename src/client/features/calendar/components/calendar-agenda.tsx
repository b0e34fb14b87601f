import { CalendarDays, Plus } from 'lucide-react';
import { useMemo } from 'react';
import { agendaDays, type CalendarRange, longDayLabel, shortDayLabel } from '../../../../domain/calendar';
import type { OccurrenceDto } from '../../../../domain/schemas/repeat';
import type { TaskDto } from '../../../../domain/schemas/task';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { cn } from '../../../lib/cn';
import { EMPTY_TEXT } from './calendar-texts';
import { OccurrenceChip } from './occurrence-chip';
import { agendaWithOccurrences, occurrencesByDay } from './occurrence-days';
import { agendaDayOf, spansDays } from './span-layout';
import { TaskLink } from './task-chip';

interface CalendarAgendaProps {
  range: CalendarRange;
  today: string;
  tasks: TaskDto[];
  /** Repeating tasks' future dates, listed faded after each day's tasks. */
  occurrences: OccurrenceDto[];
  isLoading: boolean;
  /** A day's 'Add task on …'. None: the caller adds no tasks here (issue 41). */
  onAddTask?: (date: string) => void;
}

/** Narrow screens: the shown days that have tasks, in order, one under the other. */
export function CalendarAgenda({ range, today, tasks, occurrences, isLoading, onAddTask }: CalendarAgendaProps) {
  // A spanning task is listed under its first shown day, with its days (agendaDays groups by the day given it).
  const days = useMemo(() => {
    const shown = range.weeks.flat();
    const taskDays = agendaDays(
      tasks.map((t) => ({ ...t, task: t, dueDate: agendaDayOf(t, range.from) })),
      shown,
    );
    return agendaWithOccurrences(taskDays, occurrencesByDay(occurrences, shown));
  }, [tasks, occurrences, range]);
  if (isLoading) {
    return (
      <div aria-hidden className="space-y-3">
        {[0, 1, 2].map((i) => (
          <div key={i} className="h-20 animate-pulse rounded-xl bg-slate-100 dark:bg-slate-800" />
        ))}
      </div>
    );
  }
  if (days.length === 0) {
    return (
      <EmptyState
        icon={<CalendarDays className="h-8 w-8" aria-hidden />}
        title={EMPTY_TEXT}
        action={
          onAddTask && (
            <Button variant="secondary" onClick={() => onAddTask(today)} aria-label={`Add task on ${longDayLabel(today)}`}>
              <Plus className="h-4 w-4" aria-hidden />
              Add task
            </Button>
          )
        }
      />
    );
  }
  return (
    <ol className="space-y-4" data-testid="calendar-agenda">
      {days.map(({ date, tasks: dayTasks, occurrences: future }) => (
        <li key={date} className="min-w-0">
          <div className="mb-1.5 flex items-center justify-between gap-2">
            <h3 className={cn('text-sm font-semibold', date === today && 'text-brand-700 dark:text-brand-100')}>
              <span aria-hidden>{shortDayLabel(date)}</span>
              <span className="sr-only">{longDayLabel(date)}</span>
              {date === today && <span className="ml-2 rounded-full bg-brand-600 px-2 py-0.5 text-xs text-white">Today</span>}
            </h3>
            {onAddTask && (
              <button
                type="button"
                onClick={() => onAddTask(date)}
                aria-label={`Add task on ${longDayLabel(date)}`}
                title={`Add task on ${longDayLabel(date)}`}
                className="inline-flex h-8 w-8 items-center justify-center rounded-md text-slate-600 outline-none hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-brand-600 dark:text-slate-300 dark:hover:bg-slate-800"
              >
                <Plus className="h-4 w-4" aria-hidden />
              </button>
            )}
          </div>
          <ul className="flex flex-col gap-1.5">
            {dayTasks.map(({ task }) => (
              <li key={task.id}>
                <TaskLink
                  task={task}
                  days={spansDays(task) ? `${shortDayLabel(task.startDate!)} – ${shortDayLabel(task.dueDate!)}` : undefined}
                />
              </li>
            ))}
            {future.map((o) => (
              <li key={`${o.seriesId}-${o.date}`}>
                <OccurrenceChip occurrence={o} size="full" />
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}
