import { Filter, Plus, X } from 'lucide-react';
import { lazy, type ReactNode, Suspense, useMemo, useRef, useState } from 'react';
import { DUE_FILTER_LABELS, START_FILTER_LABELS, TASK_PRIORITY_LABELS } from '../../../../domain/constants';
import { CUSTOM_FIELD_LIMITS, type FieldFilter, formatFieldFilter } from '../../../../domain/custom-fields';
import { DEFAULT_STATUSES, STATUS_CATEGORIES, STATUS_CATEGORY_LABELS } from '../../../../domain/workflow';
import { Button } from '../../../components/ui/button';
import { labelled, named, OptionsSelect, type SelectOption } from '../../../components/ui/options-select';
import { SearchField } from '../../../components/ui/search-field';
import { cn } from '../../../lib/cn';
import { useProjectStatuses } from '../../../lib/queries/statuses';
import { useUrlSearchBox } from '../../../lib/use-debounced-value';
import { useTaskProjects } from '../api/get-projects';
import { useTaskTeams } from '../api/get-teams';
import type { BoardShape } from '../board/board-model';
import type { TaskUrlChanges, TaskUrlState } from '../hooks/use-task-filters';
import { useScopeFields } from '../hooks/use-scope-fields';

// The 'More Filters' panel and the custom field filter's editor load when first opened (never with the board).
const FilterPanel = lazy(() => import('./filter-panel').then((m) => ({ default: m.FilterPanel })));
// The custom field filters' chips load when the URL has some (their labels need the fields' options and people).
const FieldFilterChips = lazy(() => import('./field-filter-chips').then((m) => ({ default: m.FieldFilterChips })));
const FieldFilterMenu = lazy(() => import('./field-filter-menu').then((m) => ({ default: m.FieldFilterMenu })));

/** The filters of the 'More Filters' panel, each shown as a removable chip when set. */
type PanelFilter = 'status' | 'category' | 'priority' | 'assignee' | 'due' | 'start';
type Update = (changes: TaskUrlChanges) => void;

interface TaskFiltersBarProps {
  state: TaskUrlState;
  update: Update;
  clearAll: () => void;
  /** Beside 'More Filters': the saved views' menu and 'Save view'. */
  tools?: ReactNode;
  /** The board's shape when known: on All Projects whose workflows differ, the status filter offers categories. */
  shape?: BoardShape;
}

/** Project dropdown, search, and the 'More Filters' panel; everything is applied on the server. */
export function TaskFiltersBar({ state, update, clearAll, tools, shape }: TaskFiltersBarProps) {
  const projects = useTaskProjects();
  // Status choices: the project in scope's statuses; on All Projects the default four, or the categories when the
  // visible projects' workflows differ (the board's columns either way).
  const projectStatuses = useProjectStatuses(state.project || null).data;
  const byCategory = !state.project && shape?.columnKind === 'category';
  const statusOptions: SelectOption[] = byCategory
    ? labelled(STATUS_CATEGORIES, STATUS_CATEGORY_LABELS)
    : (state.project ? (projectStatuses ?? []) : DEFAULT_STATUSES).map((s) => ({ value: s.key, label: s.name }));
  const statusName = (key: string) => statusOptions.find((o) => o.value === key)?.label ?? key;
  const teams = useTaskTeams();
  const [search, setSearch] = useUrlSearchBox(state.q, (q) => update({ q: q || null }));
  const [isOpen, setOpen] = useState(
    Boolean(state.status || state.category || state.priority || state.assignee || state.due || state.start),
  );
  // Custom fields (issue 38): those of the scope can be filtered; a chip names its field even out of scope.
  const scope = useScopeFields(state.project);
  const [isAdding, setAdding] = useState(false);
  const addButton = useRef<HTMLButtonElement>(null);
  const closeAdding = () => {
    setAdding(false);
    requestAnimationFrame(() => addButton.current?.focus());
  };
  // One filter a field: a new one replaces the field's filter (`cf` starts with the field's id).
  const applyFieldFilter = (filter: FieldFilter) => {
    update({ cf: [...state.cf.filter((f) => !f.startsWith(`${filter.fieldId}:`)), formatFieldFilter(filter)] });
    closeAdding();
  };

  // Assignee choices: the members of the chosen project's team, else of all the caller's teams. Only worked out
  // when the panel or an assignee chip shows them (the first sort by locale costs ~12 ms on a cold load).
  const needMembers = isOpen || Boolean(state.assignee);
  const members = useMemo(() => {
    if (!needMembers) return [];
    const teamId = projects.data?.find((p) => p.id === state.project)?.teamId;
    const byId = new Map<string, string>();
    for (const team of teams.data ?? []) {
      if (teamId && team.id !== teamId) continue;
      for (const m of team.members) byId.set(m.userId, m.user.fullName);
    }
    return [...byId].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
  }, [needMembers, teams.data, projects.data, state.project]);

  const assigneeName = (id: string) =>
    id === 'unassigned' ? 'Unassigned' : (members.find((m) => m.id === id)?.name ?? 'Selected member');

  const chips = [
    state.status && { key: 'status' as const, label: `Status: ${statusName(state.status)}` },
    state.category && { key: 'category' as const, label: `Status: ${STATUS_CATEGORY_LABELS[state.category]}` },
    state.priority && { key: 'priority' as const, label: `Priority: ${TASK_PRIORITY_LABELS[state.priority]}` },
    state.assignee && { key: 'assignee' as const, label: `Assignee: ${assigneeName(state.assignee)}` },
    state.due && { key: 'due' as const, label: `Due: ${DUE_FILTER_LABELS[state.due]}` },
    state.start && { key: 'start' as const, label: `Start date: ${START_FILTER_LABELS[state.start]}` },
  ].filter((c): c is { key: PanelFilter; label: string } => Boolean(c));

  const hasAny = chips.length > 0 || state.cf.length > 0 || Boolean(state.project || state.q);

  return (
    <div className="mb-4 space-y-3">
      <div className="flex flex-wrap items-end gap-3">
        <OptionsSelect
          label="Project"
          srOnlyLabel
          className="w-full sm:w-56"
          value={state.project}
          onChange={(e) => update({ project: e.target.value || null })}
          emptyOption="All Projects"
          options={named(projects.data)}
        />
        <SearchField
          label="Search tasks"
          placeholder="Search tasks..."
          value={search}
          onValueChange={setSearch}
          iconAt="start"
          className="w-full min-w-full flex-1 sm:min-w-56"
        />
        <Button
          variant="secondary"
          aria-expanded={isOpen}
          aria-controls={isOpen ? 'task-filter-panel' : undefined}
          onClick={() => setOpen((o) => !o)}
          className={cn(chips.length > 0 && 'border-brand-600 dark:border-brand-100')}
        >
          <Filter className="h-4 w-4" aria-hidden />
          More Filters
          {chips.length > 0 && (
            <span className="rounded-full bg-brand-600 px-1.5 text-xs text-white">
              {chips.length}
              <span className="sr-only"> active</span>
            </span>
          )}
        </Button>
        {scope.fields.length > 0 && (
          <Button
            ref={addButton}
            variant="secondary"
            aria-expanded={isAdding}
            aria-controls={isAdding ? 'task-field-filter' : undefined}
            disabled={state.cf.length >= CUSTOM_FIELD_LIMITS.filtersMax}
            onClick={() => setAdding((a) => !a)}
          >
            <Plus className="h-4 w-4" aria-hidden />
            Add filter
          </Button>
        )}
        {tools}
      </div>

      {isAdding && (
        <Suspense fallback={<p className="text-sm text-slate-600 dark:text-slate-300">Loading...</p>}>
          <FieldFilterMenu
            id="task-field-filter"
            fields={scope.fields}
            teams={teams.data ?? []}
            onApply={applyFieldFilter}
            onCancel={closeAdding}
          />
        </Suspense>
      )}

      {isOpen && (
        <Suspense fallback={<p className="text-sm text-slate-600 dark:text-slate-300">Loading...</p>}>
          <FilterPanel
            state={state}
            update={update}
            clearAll={clearAll}
            hasAny={hasAny}
            statusKey={byCategory ? 'category' : 'status'}
            statusOptions={statusOptions}
            members={members}
          />
        </Suspense>
      )}

      {chips.length + state.cf.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label="Active filters">
          {chips.map((c) => (
            <FilterChip key={c.key} label={c.label} onRemove={() => update({ [c.key]: null })} />
          ))}
          {state.cf.length > 0 && (
            <Suspense fallback={null}>
              <FieldFilterChips cf={state.cf} fields={scope.all} onChange={(cf) => update({ cf })} Chip={FilterChip} />
            </Suspense>
          )}
        </ul>
      )}
    </div>
  );
}

/** An active filter's chip, with its remove button (named for screen readers). */
export function FilterChip({ label, onRemove }: { label: string; onRemove: () => void }) {
  return (
    <li className="inline-flex max-w-full items-center gap-1 rounded-full bg-brand-100 py-1 pl-3 pr-1 text-xs font-medium text-brand-700 dark:bg-indigo-950 dark:text-indigo-200">
      <span className="min-w-0 break-words">{label}</span>
      <button
        type="button"
        className="rounded-full p-0.5 hover:bg-brand-600/20"
        aria-label={`Remove filter ${label}`}
        onClick={onRemove}
      >
        <X className="h-3.5 w-3.5" aria-hidden />
      </button>
    </li>
  );
}
