import { Filter, Search, X } from 'lucide-react';
import { useMemo, useState } from 'react';
import {
  DUE_FILTER_LABELS,
  DUE_FILTERS,
  TASK_PRIORITIES,
  TASK_PRIORITY_LABELS,
  TASK_STATUS_LABELS,
  TASK_STATUSES,
} from '../../../../domain/constants';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/field';
import { cn } from '../../../lib/cn';
import { useUrlSearchBox } from '../../../lib/use-debounced-value';
import { useTaskProjects } from '../api/get-projects';
import { useTaskTeams } from '../api/get-teams';
import type { TaskUrlState } from '../hooks/use-task-filters';

type Update = (changes: Partial<Record<keyof TaskUrlState, string | null>>) => void;

interface TaskFiltersBarProps {
  state: TaskUrlState;
  update: Update;
  clearAll: () => void;
}

/** Project dropdown, search, and the 'More Filters' panel; everything is applied on the server. */
export function TaskFiltersBar({ state, update, clearAll }: TaskFiltersBarProps) {
  const projects = useTaskProjects();
  const teams = useTaskTeams();
  const [search, setSearch] = useUrlSearchBox(state.q, (q) => update({ q: q || null }));
  const [isOpen, setOpen] = useState(Boolean(state.status || state.priority || state.assignee || state.due));

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
    state.status && { key: 'status' as const, label: `Status: ${TASK_STATUS_LABELS[state.status]}` },
    state.priority && { key: 'priority' as const, label: `Priority: ${TASK_PRIORITY_LABELS[state.priority]}` },
    state.assignee && { key: 'assignee' as const, label: `Assignee: ${assigneeName(state.assignee)}` },
    state.due && { key: 'due' as const, label: `Due: ${DUE_FILTER_LABELS[state.due]}` },
  ].filter((c): c is { key: 'status' | 'priority' | 'assignee' | 'due'; label: string } => Boolean(c));

  const hasAny = chips.length > 0 || Boolean(state.project || state.q);

  return (
    <div className="mb-4 space-y-3">
      <div className="flex flex-wrap items-end gap-3">
        <SelectField
          label="Project"
          srOnlyLabel
          className="w-full sm:w-56"
          value={state.project}
          onChange={(e) => update({ project: e.target.value || null })}
        >
          <option value="">All Projects</option>
          {projects.data?.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </SelectField>
        <div className="relative w-full min-w-0 flex-1 sm:min-w-56">
          <Search className="pointer-events-none absolute left-3 top-1/2 z-10 h-4 w-4 -translate-y-1/2 text-slate-500 dark:text-slate-400" aria-hidden />
          <TextField
            label="Search tasks"
            srOnlyLabel
            type="search"
            placeholder="Search tasks..."
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="[&_input]:pl-9"
          />
        </div>
        <Button
          variant="secondary"
          aria-expanded={isOpen}
          aria-controls="task-filter-panel"
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
      </div>

      {isOpen && (
        <section
          id="task-filter-panel"
          aria-labelledby="task-filter-title"
          className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900"
        >
          <div className="mb-3 flex items-center justify-between">
            <h2 id="task-filter-title" className="text-sm font-semibold">
              Filters
            </h2>
            <Button variant="link" onClick={clearAll} disabled={!hasAny}>
              Clear All
            </Button>
          </div>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <SelectField label="Status" value={state.status} onChange={(e) => update({ status: e.target.value || null })}>
              <option value="">All Status</option>
              {TASK_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {TASK_STATUS_LABELS[s]}
                </option>
              ))}
            </SelectField>
            <SelectField label="Priority" value={state.priority} onChange={(e) => update({ priority: e.target.value || null })}>
              <option value="">All Priorities</option>
              {TASK_PRIORITIES.map((p) => (
                <option key={p} value={p}>
                  {TASK_PRIORITY_LABELS[p]}
                </option>
              ))}
            </SelectField>
            <SelectField label="Assignee" value={state.assignee} onChange={(e) => update({ assignee: e.target.value || null })}>
              <option value="">All Assignees</option>
              <option value="unassigned">Unassigned</option>
              {members.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name}
                </option>
              ))}
            </SelectField>
            <SelectField label="Due Date" value={state.due} onChange={(e) => update({ due: e.target.value || null })}>
              <option value="">Any Due Date</option>
              {DUE_FILTERS.map((d) => (
                <option key={d} value={d}>
                  {DUE_FILTER_LABELS[d]}
                </option>
              ))}
            </SelectField>
          </div>
        </section>
      )}

      {chips.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label="Active filters">
          {chips.map((chip) => (
            <li
              key={chip.key}
              className="inline-flex items-center gap-1 rounded-full bg-brand-100 py-1 pl-3 pr-1 text-xs font-medium text-brand-700 dark:bg-indigo-950 dark:text-indigo-200"
            >
              {chip.label}
              <button
                type="button"
                className="rounded-full p-0.5 hover:bg-brand-600/20"
                aria-label={`Remove filter ${chip.label}`}
                onClick={() => update({ [chip.key]: null })}
              >
                <X className="h-3.5 w-3.5" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
