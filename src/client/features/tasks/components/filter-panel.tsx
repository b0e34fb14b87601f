import {
  DUE_FILTER_LABELS,
  DUE_FILTERS,
  START_FILTER_LABELS,
  START_FILTERS,
  TASK_PRIORITIES,
  TASK_PRIORITY_LABELS,
} from '../../../../domain/constants';
import { Button } from '../../../components/ui/button';
import { labelled, named, OptionsSelect, type SelectOption } from '../../../components/ui/options-select';
import type { TaskUrlChanges, TaskUrlState } from '../hooks/use-task-filters';

type PanelFilter = 'status' | 'category' | 'priority' | 'assignee' | 'due' | 'start';

interface FilterPanelProps {
  state: TaskUrlState;
  update: (changes: TaskUrlChanges) => void;
  clearAll: () => void;
  /** Something to clear (any filter, the project, the search). */
  hasAny: boolean;
  /** The status filter's key: a status, or a category (All Projects whose workflows differ). */
  statusKey: 'status' | 'category';
  statusOptions: SelectOption[];
  members: { id: string; name: string }[];
}

/**
 * The Tasks page's 'More Filters' panel: status, priority, assignee, due and start date, and 'Clear All' (which
 * clears the custom field filters too). Loaded when first opened.
 */
export function FilterPanel({ state, update, clearAll, hasAny, statusKey, statusOptions, members }: FilterPanelProps) {
  // The panel's selects, each with a first choice that clears it.
  const panelSelects: { key: PanelFilter; label: string; any: string; options: SelectOption[] }[] = [
    { key: statusKey, label: 'Status', any: 'All Status', options: statusOptions },
    { key: 'priority', label: 'Priority', any: 'All Priorities', options: labelled(TASK_PRIORITIES, TASK_PRIORITY_LABELS) },
    {
      key: 'assignee',
      label: 'Assignee',
      any: 'All Assignees',
      options: [{ value: 'unassigned', label: 'Unassigned' }, ...named(members)],
    },
    { key: 'due', label: 'Due Date', any: 'Any Due Date', options: labelled(DUE_FILTERS, DUE_FILTER_LABELS) },
    { key: 'start', label: 'Start Date', any: 'Any Start Date', options: labelled(START_FILTERS, START_FILTER_LABELS) },
  ];
  return (
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
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5">
        {panelSelects.map(({ key, label, any, options }) => (
          <OptionsSelect
            key={key}
            label={label}
            value={state[key]}
            // A status and a category filter are one choice: setting one clears the other.
            onChange={(e) =>
              update(
                key === 'status' || key === 'category'
                  ? { status: null, category: null, [key]: e.target.value || null }
                  : { [key]: e.target.value || null },
              )
            }
            emptyOption={any}
            options={options}
          />
        ))}
      </div>
    </section>
  );
}
