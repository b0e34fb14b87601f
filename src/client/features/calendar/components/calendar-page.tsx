import { useQuery } from '@tanstack/react-query';
import { Rss } from 'lucide-react';
import { useCallback } from 'react';
import { Link, useNavigate } from 'react-router';
import type { CalendarView } from '../../../../domain/calendar';
import type { TaskDto } from '../../../../domain/schemas/task';
import { LoadError } from '../../../components/ui/load-error';
import { PageHeader } from '../../../components/ui/page-header';
import { RangeNav } from '../../../components/ui/range-nav';
import { cn } from '../../../lib/cn';
import { projectsQueryOptions } from '../../../lib/queries/projects';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useOffersNewTask, useWorkRights } from '../../../lib/use-work-rights';
import { useQuickAddStore } from '../../../stores/ui-store';
import { useCalendarTasks } from '../api/get-calendar-tasks';
import { useOccurrences } from '../api/get-occurrences';
import { useCalendarState } from '../hooks/use-calendar-state';
import { useMediaQuery } from '../hooks/use-media-query';
import { CalendarAgenda } from './calendar-agenda';
import { CalendarFilters } from './calendar-filters';
import { CalendarGrid } from './calendar-grid';
import { EMPTY_TEXT, LOAD_FAILED_TEXT } from './calendar-texts';
import { CalendarLegend } from './calendar-legend';

const VIEWS: { value: CalendarView; label: string }[] = [
  { value: 'month', label: 'Month' },
  { value: 'week', label: 'Week' },
];

/** Below this width the grid gives way to the agenda list. */
const GRID_QUERY = '(min-width: 768px)';

/**
 * /calendar: tasks by due date, a month or a week at a time (an agenda list on narrow screens). What it shows is in
 * the URL; tasks move to another day by drag (pointer or keyboard); a day's '+' opens New Task with its date (not for
 * someone who may add no task there: a viewer or a guest of the filtered team or project, or of every team, issue 41).
 */
export function CalendarPage() {
  useDocumentTitle('Calendar');
  const { view, date, today, teamId, projectId, range, weekStartsOn, setView, go, goToday, setFilters } = useCalendarState();
  const shown = { from: range.from, to: range.to, teamId: teamId || undefined, projectId: projectId || undefined };
  const query = useCalendarTasks(shown);
  // Repeating tasks' future dates: drawn faded when they come; without them (an error) the tasks still show.
  const future = useOccurrences(shown);
  const isWide = useMediaQuery(GRID_QUERY);
  const navigate = useNavigate();
  const openWith = useQuickAddStore((s) => s.openWith);

  // The task's page is the board with the task over it; closing it comes back here (as from the board).
  const openTask = useCallback((task: TaskDto) => navigate(`/tasks/${task.id}`, { state: { fromBoard: true } }), [navigate]);
  // New Task starts in the filtered project, else (with a team chosen) in that team's newest project.
  const projects = useQuery(projectsQueryOptions());
  const presetProject = projectId || projects.data?.find((p) => teamId && p.teamId === teamId)?.id;
  const addTask = useCallback((day: string) => openWith({ dueDate: day, projectId: presetProject }), [openWith, presetProject]);
  const rights = useWorkRights();
  const offersNewTask = useOffersNewTask();
  const canAdd = projectId ? rights.canCreateTask(projectId) : teamId ? rights.canAddToTeam(teamId) : offersNewTask;
  const onAddTask = canAdd ? addTask : undefined;

  const tasks = query.data ?? [];
  const occurrences = future.data ?? [];
  const isLoading = query.isPending;
  const unit = view === 'month' ? 'month' : 'week';
  const isEmpty = query.isSuccess && !query.isPlaceholderData && tasks.length === 0 && occurrences.length === 0;

  return (
    <div>
      <PageHeader
        title="Calendar"
        subtitle="Your teams' tasks by due date"
        actions={
          <Link
            to="/settings#calendar-feed"
            className="inline-flex h-10 items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700"
          >
            <Rss className="h-4 w-4" aria-hidden />
            Subscribe
          </Link>
        }
      />

      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <RangeNav unit={unit} title={range.title} onToday={goToday} onStep={go} isTitleLive titleTestId="calendar-title" />
        <div className="flex w-full flex-wrap items-center gap-2 sm:w-auto">
          <div
            role="group"
            aria-label="View"
            className="inline-flex rounded-lg border border-slate-300 p-0.5 dark:border-slate-600"
          >
            {VIEWS.map((v) => (
              <button
                key={v.value}
                type="button"
                aria-pressed={view === v.value}
                onClick={() => setView(v.value)}
                className={cn(
                  'inline-flex h-8 items-center rounded-md px-3 text-sm font-medium',
                  view === v.value
                    ? 'bg-brand-600 text-white'
                    : 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800',
                )}
              >
                {v.label}
              </button>
            ))}
          </div>
          <CalendarFilters teamId={teamId} projectId={projectId} onChange={setFilters} />
        </div>
      </div>

      {query.isError && <LoadError text={LOAD_FAILED_TEXT} onRetry={() => void query.refetch()} isRetrying={query.isFetching} />}
      {isLoading && (
        <p className="sr-only" role="status">
          Loading tasks...
        </p>
      )}
      {isEmpty && isWide && (
        <p role="status" className="mb-3 text-sm text-slate-600 dark:text-slate-300">
          {EMPTY_TEXT}.{onAddTask && " Use a day's + button to add one."}
        </p>
      )}

      {/* Another range's or filter's tasks stay, dimmed, until this one's arrive. */}
      <div className={cn('transition-opacity', query.isPlaceholderData && 'opacity-60')}>
        {isWide ? (
          <>
            <CalendarGrid
              range={range}
              date={date}
              today={today}
              weekStartsOn={weekStartsOn}
              tasks={tasks}
              occurrences={occurrences}
              isLoading={isLoading}
              onOpenTask={openTask}
              onAddTask={onAddTask}
            />
            <CalendarLegend />
          </>
        ) : (
          <CalendarAgenda
            range={range}
            today={today}
            tasks={tasks}
            occurrences={occurrences}
            isLoading={isLoading}
            onAddTask={onAddTask}
          />
        )}
      </div>
    </div>
  );
}
