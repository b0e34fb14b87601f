import { LayoutGrid, List } from 'lucide-react';
import { lazy, type ReactNode, Suspense, useCallback, useId, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useOutletContext, useParams } from 'react-router';
import type { TaskDto } from '../../../../domain/schemas/task';
import { CreateButton } from '../../../components/ui/create-button';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { Switch } from '../../../components/ui/switch';
import { cn } from '../../../lib/cn';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useWorkRights } from '../../../lib/use-work-rights';
import { useBoardShape } from '../api/get-tasks';
import { GROUP_BY_LABELS, GROUP_BYS, type GroupBy } from '../board/board-model';
import type { TaskListSort } from '../api/task-keys';
import { useScopeFields } from '../hooks/use-scope-fields';
import { useTaskFilters } from '../hooks/use-task-filters';
import { TaskBoard } from './task-board';
import { TaskFiltersBar } from './task-filters-bar';
import { TaskFormModal } from './task-form-modal-lazy';

// The list (its columns, the 'Columns' menu) loads when first shown: the board is the page's default.
const loadList = () => import('./task-list-table');
const TaskListTable = lazy(() => loadList().then((m) => ({ default: m.TaskListTable })));
// A cold load of the list asks for its chunk with the page's, not after the page's first render.
if (typeof window !== 'undefined' && /^\/tasks/.test(window.location.pathname) && /[?&]view=list/.test(window.location.search))
  void loadList();

/** What the app shell lends the page (composed in app/, from other features): the saved views' controls. */
export interface TasksPageSlots {
  filterTools?: ReactNode;
  /** Beside the header's actions when the board shows one project ('Share', issue 40). */
  projectTools?: (projectId: string) => ReactNode;
}

/** How the board opened a task: closing it goes back (Back would too) instead of adding a history entry. */
interface OpenedFromBoard {
  fromBoard: true;
}

/**
 * The board (or list) of tasks, and over it the task modal: New Task (local state), or an existing task at its own
 * URL, /tasks/:id with the board's filters kept in the query string. The route is one (`tasks/:taskId?`), so opening
 * and closing a task never remounts the board: its scroll, its loaded pages and its focus stay.
 */
export function TasksPage() {
  useDocumentTitle('Tasks');
  const { state, query, sort, update, clearAll } = useTaskFilters();
  const slots = useOutletContext<TasksPageSlots | undefined>();
  const [creating, setCreating] = useState<{ status?: string } | null>(null);
  const { taskId } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  // The task stays in the modal while it closes (and the form keeps its place until the next one opens).
  const [shownTaskId, setShownTaskId] = useState(taskId ?? null);
  if (taskId && taskId !== shownTaskId) setShownTaskId(taskId);
  const current = useRef({ taskId, fromBoard: false });
  current.current = { taskId, fromBoard: (location.state as OpenedFromBoard | null)?.fromBoard === true };

  // Stable identity for the memoised columns.
  const boardKey = JSON.stringify(query);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the serialised filters
  const stableBoardFilters = useMemo(() => query, [boardKey]);
  // The board's shape (its columns) for the status filter's choices; the list view reads it only from the cache.
  const shape = useBoardShape(stableBoardFilters, state.view === 'board').data;

  // Read from window.location so that the callback stays the same for every card (they are memoised on it).
  const openTask = useCallback(
    (task: TaskDto) =>
      navigate(
        { pathname: `/tasks/${task.id}`, search: window.location.search },
        { state: { fromBoard: true } satisfies OpenedFromBoard },
      ),
    [navigate],
  );
  const closeTask = useCallback(() => {
    // Escape, Save and Delete can all close in one moment: leave the task's URL once.
    if (!current.current.taskId) return;
    const fromBoard = current.current.fromBoard;
    current.current = { taskId: undefined, fromBoard: false };
    if (fromBoard) navigate(-1);
    else navigate({ pathname: '/tasks', search: window.location.search }, { replace: true });
  }, [navigate]);
  const addTask = useCallback((status?: string) => setCreating({ status }), []);
  const onSort = useCallback((s: NonNullable<TaskListSort['sort']>, dir: 'asc' | 'desc') => update({ sort: s, dir }), [update]);
  const onHiddenChange = useCallback((hidden: string[]) => update({ columns: hidden.join(',') || null }), [update]);
  const fields = useScopeFields(state.project).fields;
  // A viewer, or a guest, adds no tasks (issue 41): no 'New Task', no column's 'Add task'.
  const canCreate = useWorkRights().canCreateTask(state.project || undefined);

  return (
    <div>
      <PageHeader
        title="Tasks"
        subtitle="Manage and track your team's tasks"
        actions={
          <>
            <div
              role="group"
              aria-label="View"
              className="inline-flex rounded-lg border border-slate-300 p-0.5 dark:border-slate-600"
            >
              {(['board', 'list'] as const).map((v) => (
                <button
                  key={v}
                  type="button"
                  aria-pressed={state.view === v}
                  onClick={() => update({ view: v === 'board' ? null : 'list' })}
                  onPointerEnter={v === 'list' ? () => void loadList() : undefined}
                  className={cn(
                    'inline-flex h-8 items-center gap-1.5 rounded-md px-3 text-sm font-medium',
                    state.view === v
                      ? 'bg-brand-600 text-white'
                      : 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800',
                  )}
                >
                  {v === 'board' ? <LayoutGrid className="h-4 w-4" aria-hidden /> : <List className="h-4 w-4" aria-hidden />}
                  {v === 'board' ? 'Board' : 'List'}
                </button>
              ))}
            </div>
            {state.view === 'board' && (
              <GroupBySelect value={state.groupBy} onChange={(groupBy) => update({ groupBy: groupBy || null })} />
            )}
            <Switch
              label="Show sub-tasks"
              checked={state.subtasks !== 'hide'}
              onCheckedChange={(show) => update({ subtasks: show ? null : 'hide' })}
            />
            {state.project && slots?.projectTools?.(state.project)}
            {canCreate && <CreateButton onClick={() => addTask()}>New Task</CreateButton>}
          </>
        }
      />
      <TaskFiltersBar state={state} update={update} clearAll={clearAll} tools={slots?.filterTools} shape={shape} />
      {state.view === 'list' ? (
        <Suspense fallback={<Spinner label="Loading tasks..." />}>
          <TaskListTable
            filters={query}
            sort={sort}
            onSort={onSort}
            onOpenTask={openTask}
            fields={fields}
            hidden={state.columns}
            onHiddenChange={onHiddenChange}
          />
        </Suspense>
      ) : (
        <TaskBoard
          filters={stableBoardFilters}
          groupBy={state.groupBy || undefined}
          onOpenTask={openTask}
          onAddTask={canCreate ? addTask : undefined}
        />
      )}
      <TaskFormModal
        open={creating ? true : Boolean(taskId)}
        onClose={creating ? () => setCreating(null) : closeTask}
        taskId={creating ? null : shownTaskId}
        initialStatus={creating?.status}
        initialProjectId={state.project || undefined}
      />
    </div>
  );
}

/** The board's swimlanes: 'None', 'Assignee', 'Priority' or 'Project' (the URL's `groupBy`). */
function GroupBySelect({ value, onChange }: { value: GroupBy | ''; onChange: (groupBy: string) => void }) {
  const id = useId();
  return (
    <div className="inline-flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium text-slate-700 dark:text-slate-200">
        Group by
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="h-9 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
      >
        {(['', ...GROUP_BYS] as const).map((g) => (
          <option key={g} value={g}>
            {GROUP_BY_LABELS[g]}
          </option>
        ))}
      </select>
    </div>
  );
}
