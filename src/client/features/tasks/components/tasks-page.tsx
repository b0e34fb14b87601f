import { LayoutGrid, List } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import type { TaskStatus } from '../../../../domain/constants';
import type { TaskDto, TaskSort } from '../../../../domain/schemas/task';
import { CreateButton } from '../../../components/ui/create-button';
import { PageHeader } from '../../../components/ui/page-header';
import { cn } from '../../../lib/cn';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useTaskFilters } from '../hooks/use-task-filters';
import { TaskBoard } from './task-board';
import { TaskFiltersBar } from './task-filters-bar';
import { TaskFormModal } from './task-form-modal-lazy';
import { TaskListTable } from './task-list-table';

type FormState = { mode: 'closed' } | { mode: 'create'; status?: TaskStatus } | { mode: 'edit'; task: TaskDto };

export function TasksPage() {
  useDocumentTitle('Tasks');
  const { state, query, sort, update, clearAll } = useTaskFilters();
  const [form, setForm] = useState<FormState>({ mode: 'closed' });

  const { status: statusFilter, ...boardFilters } = query;
  // Stable identity for the memoised columns.
  const boardKey = JSON.stringify(boardFilters);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the serialised filters
  const stableBoardFilters = useMemo(() => boardFilters, [boardKey]);

  const openTask = useCallback((task: TaskDto) => setForm({ mode: 'edit', task }), []);
  const addTask = useCallback((status?: TaskStatus) => setForm({ mode: 'create', status }), []);
  const onSort = useCallback((s: TaskSort, dir: 'asc' | 'desc') => update({ sort: s, dir }), [update]);

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
            <CreateButton onClick={() => addTask()}>New Task</CreateButton>
          </>
        }
      />
      <TaskFiltersBar state={state} update={update} clearAll={clearAll} />
      {state.view === 'list' ? (
        <TaskListTable filters={query} sort={sort} onSort={onSort} onOpenTask={openTask} />
      ) : (
        <TaskBoard filters={stableBoardFilters} statusFilter={statusFilter} onOpenTask={openTask} onAddTask={addTask} />
      )}
      <TaskFormModal
        open={form.mode !== 'closed'}
        onClose={() => setForm({ mode: 'closed' })}
        task={form.mode === 'edit' ? form.task : null}
        initialStatus={form.mode === 'create' ? form.status : undefined}
        initialProjectId={state.project || undefined}
      />
    </div>
  );
}
