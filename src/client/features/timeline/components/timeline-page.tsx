import { CalendarRange } from 'lucide-react';
import { type ComponentType, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { TimelineTask } from '../../../../domain/schemas/timeline';
import { TASK_STRUCTURE_ERRORS } from '../../../../domain/task-structure-errors';
import { EmptyState } from '../../../components/ui/empty-state';
import { LoadError } from '../../../components/ui/load-error';
import { PageHeader } from '../../../components/ui/page-header';
import { RangeNav } from '../../../components/ui/range-nav';
import { cn } from '../../../lib/cn';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useDateChanges } from '../api/change-dates';
import { useTimeline } from '../api/get-timeline';
import { useTimelineState } from '../hooks/use-timeline-state';
import { buildRows, earlyStarts, keepOrder, rangeText, shiftDates, ZOOM_LABELS, ZOOMS } from '../timeline-layout';
import { BAR_HELP, BAR_HELP_ID, type BarEdge } from './timeline-bar';
import { ROW_HEIGHT, TimelineChart, type TimelineChartHandle } from './timeline-chart';
import { UnscheduledList } from './unscheduled-list';

/** The team and project selects (the calendar's, composed in by the route: a feature does not import another). */
export interface TimelineFiltersProps {
  teamId: string;
  projectId: string;
  onChange: (changes: { teamId?: string | null; projectId?: string | null }) => void;
}

export interface TimelinePageProps {
  Filters: ComponentType<TimelineFiltersProps>;
}

const START_RULE = TASK_STRUCTURE_ERRORS.start_after_due.message;
export const TIMELINE_TEXTS = {
  empty: 'No dated tasks in this period',
  emptyHint: 'Give tasks a start or due date, or schedule one from Unscheduled.',
  loadFailed: 'The timeline could not be loaded.',
} as const;

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

/**
 * /timeline (issue 37): the chosen team's or project's tasks on a Gantt chart — rows by project, sub-tasks under their
 * parent, a bar from start to due (a diamond for one date), today's line, dependency arrows, zoom Week/Month/Quarter.
 * Bars move by pointer or keyboard; every change is announced and Ctrl/Cmd+Z takes the last one back. What it shows is
 * in the URL; another person's change arrives through the 'tasks' root's realtime refresh.
 */
export function TimelinePage({ Filters }: TimelinePageProps) {
  useDocumentTitle('Timeline');
  const { zoom, date, today, teamId, projectId, window: w, weekStartsOn, setZoom, go, goToday, setFilters } = useTimelineState();
  const scope = useMemo(
    () => ({ from: w.from, to: w.to, teamId: teamId || undefined, projectId: projectId || undefined }),
    [w.from, w.to, teamId, projectId],
  );
  const query = useTimeline(scope);
  const navigate = useNavigate();
  const chart = useRef<TimelineChartHandle>(null);

  const [said, setSaid] = useState({ text: '', n: 0 });
  const announce = useCallback((text: string) => setSaid((s) => ({ text, n: s.n + 1 })), []);
  const { change, undo } = useDateChanges(announce);

  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback(
    (id: string) =>
      setCollapsed((c) => {
        const next = new Set(c);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );

  // The rows keep their order while the answers change under them (keepOrder); a new window or scope starts afresh.
  const order = useRef({ key: '', ids: [] as string[] });
  const data = query.data;
  const scopeKey = JSON.stringify(scope);
  const tasks = useMemo(() => {
    if (!data) return [];
    const previous = order.current.key === scopeKey ? order.current.ids : [];
    const kept = keepOrder(previous, data.tasks);
    order.current = { key: scopeKey, ids: kept.map((t) => t.id) };
    return kept;
  }, [data, scopeKey]);
  const rows = useMemo(() => buildRows(tasks, data?.projects ?? [], collapsed), [tasks, data?.projects, collapsed]);
  const dependencies = data?.dependencies ?? [];
  const early = useMemo(() => earlyStarts(tasks, dependencies), [tasks, dependencies]);

  const onShift = useCallback(
    (task: TimelineTask, edge: BarEdge, days: number) => {
      const next = shiftDates(task, edge, days);
      if (!next) {
        announce(`${START_RULE}. ${task.title} did not change.`);
        return;
      }
      change(
        task,
        next,
        `${edge === 'move' ? 'Moved' : 'Changed'} ${task.title} to ${rangeText(next.startDate, next.dueDate, today)}`,
      );
    },
    [change, announce, today],
  );
  const onSchedule = useCallback(
    (task: TimelineTask, day: string) =>
      change(task, { startDate: day, dueDate: day }, `Scheduled ${task.title} on ${rangeText(day, day, today)}`),
    [change, today],
  );
  const onOpen = useCallback((task: TimelineTask) => navigate(`/tasks/${task.id}`, { state: { fromBoard: true } }), [navigate]);
  const dayAtPoint = useCallback((x: number, y: number) => chart.current?.dayAtPoint(x, y) ?? null, []);

  // Ctrl/Cmd+Z anywhere on the page but in a field takes the last change back.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey || e.key.toLowerCase() !== 'z' || isTyping(e.target)) return;
      e.preventDefault();
      const edit = undo();
      announce(
        edit
          ? `Undid the last change: ${edit.title} is back to ${rangeText(edit.before.startDate, edit.before.dueDate, today)}`
          : 'Nothing to undo',
      );
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [undo, announce, today]);

  const unit = zoom === 'week' ? 'week' : zoom === 'month' ? 'month' : 'quarter';
  const isEmpty = query.isSuccess && !query.isPlaceholderData && tasks.length === 0;

  return (
    <div>
      <PageHeader title="Timeline" subtitle="Your teams' tasks from start to due date" />
      <p id={BAR_HELP_ID} className="sr-only">
        {BAR_HELP}
      </p>
      <div role="status" aria-live="polite" className="sr-only" data-testid="timeline-live">
        <span key={said.n}>{said.text}</span>
      </div>

      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <RangeNav unit={unit} title={w.title} onToday={goToday} onStep={go} titleTestId="timeline-title" />
        <div className="flex w-full flex-wrap items-center gap-2 sm:w-auto">
          <fieldset className="inline-flex rounded-lg border border-slate-300 p-0.5 dark:border-slate-600">
            <legend className="sr-only">Zoom</legend>
            {ZOOMS.map((z) => (
              <label key={z} className="relative">
                <input
                  type="radio"
                  name="timeline-zoom"
                  value={z}
                  checked={zoom === z}
                  onChange={() => setZoom(z)}
                  className="peer sr-only"
                />
                <span
                  className={cn(
                    'inline-flex h-8 cursor-pointer items-center rounded-md px-3 text-sm font-medium peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600 dark:peer-focus-visible:outline-brand-500',
                    zoom === z
                      ? 'bg-brand-600 text-white'
                      : 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800',
                  )}
                >
                  {ZOOM_LABELS[z]}
                </span>
              </label>
            ))}
          </fieldset>
          <Filters teamId={teamId} projectId={projectId} onChange={setFilters} />
        </div>
      </div>

      {query.isError && (
        <LoadError text={TIMELINE_TEXTS.loadFailed} onRetry={() => void query.refetch()} isRetrying={query.isFetching} />
      )}

      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_16rem]">
        <div className={cn('min-w-0 transition-opacity', query.isPlaceholderData && 'opacity-60')}>
          {query.isPending ? (
            <ChartSkeleton />
          ) : isEmpty ? (
            <EmptyState
              icon={<CalendarRange className="h-8 w-8" aria-hidden />}
              title={TIMELINE_TEXTS.empty}
              message={TIMELINE_TEXTS.emptyHint}
            />
          ) : data ? (
            <TimelineChart
              ref={chart}
              window={w}
              weekStartsOn={weekStartsOn}
              anchor={date}
              today={today}
              rows={rows}
              dependencies={dependencies}
              early={early}
              onToggle={toggle}
              onShift={onShift}
              onOpen={onOpen}
            />
          ) : null}
        </div>
        {data && (
          <UnscheduledList
            tasks={data.unscheduled}
            total={data.unscheduledTotal}
            today={today}
            dayAtPoint={dayAtPoint}
            onSchedule={onSchedule}
          />
        )}
      </div>
    </div>
  );
}

const SKELETON_ROWS = [0, 1, 2, 3, 4, 5, 6, 7];

/** Rows shaped like the chart's while the first answer is on its way. */
function ChartSkeleton() {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900">
      <p className="sr-only" role="status">
        Loading timeline...
      </p>
      {SKELETON_ROWS.map((i) => (
        <div key={i} className="flex items-center gap-3" style={{ height: ROW_HEIGHT }} aria-hidden>
          <div className="h-3 w-32 animate-pulse rounded bg-slate-200 dark:bg-slate-700" />
          <div
            className="h-4 animate-pulse rounded bg-slate-200 dark:bg-slate-700"
            style={{ marginLeft: (i * 37) % 160, width: 80 + ((i * 53) % 140) }}
          />
        </div>
      ))}
    </div>
  );
}
