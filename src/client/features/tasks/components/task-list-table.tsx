import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import type { ReactNode } from 'react';
import { type CustomFieldValue, fieldSortKey, fieldValueText } from '../../../../domain/custom-fields';
import type { CustomFieldDto } from '../../../../domain/schemas/custom-field';
import { MSG } from '../../../../domain/messages';
import type { TaskDto } from '../../../../domain/schemas/task';
import { localDate, matchesDueFilter } from '../../../../domain/task-filters';
import { PriorityBadge, TaskStatusChip } from '../../../components/task-visuals';
import { Button } from '../../../components/ui/button';
import { ClickableRow, RowOpenButton } from '../../../components/ui/clickable-row';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { flattenPages, useTaskList } from '../api/get-tasks';
import type { TaskListSort, TaskQueryFilters } from '../api/task-keys';
import { formatLongDate } from './task-meta';
import { useTaskTeams } from '../api/get-teams';
import { ColumnsMenu } from './columns-menu';
import { usePersonNames } from './person-names';
import { BlockedBadge, SubtaskProgress } from './task-card';
import { RepeatMark } from './repeat-mark';

/**
 * A custom field's value in a cell: its text (domain `fieldValueText`: option names, a number with its unit, 'Yes'), a
 * select's options with their colour dots, a date as the other date columns show one. (Not the cards' value chips,
 * custom-field-value.tsx: imported from here too, they would move from the cards' lazy chunk into the 'shared' chunk
 * that /tasks loads at start-up.)
 */
function FieldCell({
  field,
  value,
  personName,
}: {
  field: CustomFieldDto;
  value: CustomFieldValue | undefined;
  personName: (userId: string) => string | null;
}) {
  const text = fieldValueText(field, value, personName);
  if (text === null) return null;
  if (field.type === 'date' && typeof value === 'string') return <time dateTime={value}>{formatLongDate(value)}</time>;
  if (field.type !== 'select' && field.type !== 'multi_select') return <span className="break-words">{text}</span>;
  const ids = Array.isArray(value) ? value : [value];
  return (
    <span className="flex flex-wrap gap-x-3 gap-y-1">
      {field.options
        .filter((o) => ids.includes(o.id))
        .map((o) => (
          <span key={o.id} className="inline-flex items-center gap-1.5 whitespace-nowrap">
            <span className="h-2.5 w-2.5 shrink-0 rounded-full" style={{ backgroundColor: o.color }} aria-hidden />
            {o.name}
          </span>
        ))}
    </span>
  );
}

/** A column of the list: its id (the URL's `columns` names hidden ones), its sort key (none: not sortable), its cell. */
interface Column {
  id: string;
  label: string;
  sort: TaskSortKey | null;
  cell: (task: TaskDto) => ReactNode;
  className?: string;
}

type TaskSortKey = NonNullable<TaskListSort['sort']>;

const muted = (text: string) => <span className="text-slate-500 dark:text-slate-400">{text}</span>;
const plain = 'text-slate-700 dark:text-slate-200';

/** The built-in columns after the title (each can be hidden). */
const BUILT_IN: Column[] = [
  { id: 'status', label: 'Status', sort: 'status', cell: (task) => <TaskStatusChip task={task} /> },
  { id: 'priority', label: 'Priority', sort: 'priority', cell: (task) => <PriorityBadge priority={task.priority} /> },
  {
    id: 'assignee',
    label: 'Assignee',
    sort: 'assignee',
    className: plain,
    cell: (task) => task.assignee?.fullName ?? muted('Unassigned'),
  },
  {
    id: 'start',
    label: 'Start Date',
    sort: 'start',
    className: cn('whitespace-nowrap', plain),
    cell: (task) => (task.startDate ? formatLongDate(task.startDate) : muted('No start date')),
  },
  {
    id: 'due',
    label: 'Due Date',
    sort: 'due',
    className: cn('whitespace-nowrap', plain),
    cell: (task) => (task.dueDate ? formatLongDate(task.dueDate) : muted('No due date')),
  },
  { id: 'project', label: 'Project', sort: 'project', className: plain, cell: (task) => task.projectName },
  {
    id: 'tags',
    label: 'Tags',
    sort: null,
    cell: (task) => (
      <div className="flex flex-wrap gap-1">
        {task.tags.map((tag) => (
          <span
            key={tag}
            className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700 dark:bg-slate-700 dark:text-slate-200"
          >
            {tag}
          </span>
        ))}
      </div>
    ),
  },
];

/** A custom field's column: `field:<id>`, sorted by `sort=field:<id>`; two fields of the same name say their team. */
function fieldColumns(
  fields: readonly CustomFieldDto[],
  teamName: (teamId: string) => string | undefined,
  personName: (userId: string) => string | null,
): Column[] {
  return fields.map((field) => {
    const twin = fields.some((f) => f.id !== field.id && f.name.toLowerCase() === field.name.toLowerCase());
    const team = twin ? teamName(field.teamId) : undefined;
    return {
      id: fieldSortKey(field.id),
      label: team ? `${field.name} (${team})` : field.name,
      sort: fieldSortKey(field.id),
      className: cn('max-w-60', plain),
      cell: (task) => <FieldCell field={field} value={task.fields[field.id]} personName={personName} />,
    };
  });
}

interface TaskListTableProps {
  filters: TaskQueryFilters;
  sort: TaskListSort;
  onSort: (sort: TaskSortKey, dir: 'asc' | 'desc') => void;
  onOpenTask: (task: TaskDto) => void;
  /** The custom fields of the page's scope: a column each. */
  fields: readonly CustomFieldDto[];
  /** The hidden columns' ids (built-in keys, `field:<id>`), and a change of them. */
  hidden: readonly string[];
  onHiddenChange: (hidden: string[]) => void;
}

/** The list view: the same filters as the board, sorted on the server by any column. */
export function TaskListTable({ filters, sort, onSort, onOpenTask, fields, hidden, onHiddenChange }: TaskListTableProps) {
  const query = useTaskList(filters, sort);
  const teams = useTaskTeams().data;
  const personName = usePersonNames(fields.some((f) => f.type === 'person'));
  const optional = [...BUILT_IN, ...fieldColumns(fields, (id) => teams?.find((t) => t.id === id)?.name, personName)];
  const shown = optional.filter((c) => !hidden.includes(c.id));
  const columns: Column[] = [{ id: 'title', label: 'Title', sort: 'title', cell: () => null }, ...shown];
  const tasks = flattenPages(query.data);
  const total = query.data?.pages[0]?.total ?? 0;
  const today = localDate(new Date());

  if (query.isPending) return <Spinner label="Loading tasks..." />;
  if (query.isError)
    return <EmptyState title={MSG.loadFailed} action={<Button onClick={() => void query.refetch()}>Retry</Button>} />;
  if (tasks.length === 0) return <EmptyState title="No tasks found" message="Try adjusting your search or filters" />;

  return (
    <div className="rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <div className="flex justify-end border-b border-slate-200 px-4 py-2 dark:border-slate-700">
        <ColumnsMenu columns={optional} hidden={hidden} onChange={onHiddenChange} />
      </div>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" style={{ minWidth: `${Math.max(40, 12 + shown.length * 8)}rem` }}>
          <caption className="sr-only">Tasks, {total} in all</caption>
          <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-600 dark:border-slate-700 dark:bg-slate-800/60 dark:text-slate-300">
            <tr>
              {columns.map((col) => {
                const active = col.sort !== null && sort.sort === col.sort;
                const ariaSort = active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined;
                return (
                  <th key={col.id} scope="col" aria-sort={ariaSort} className="px-4 py-3 font-semibold">
                    {col.sort ? (
                      <button
                        type="button"
                        className="inline-flex items-center gap-1 rounded uppercase hover:text-slate-900 dark:hover:text-white"
                        onClick={() => onSort(col.sort!, active && sort.dir === 'asc' ? 'desc' : 'asc')}
                      >
                        {col.label}
                        {active ? (
                          sort.dir === 'asc' ? (
                            <ArrowUp className="h-3.5 w-3.5" aria-hidden />
                          ) : (
                            <ArrowDown className="h-3.5 w-3.5" aria-hidden />
                          )
                        ) : (
                          <ArrowUpDown className="h-3.5 w-3.5 opacity-50" aria-hidden />
                        )}
                      </button>
                    ) : (
                      col.label
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
            {tasks.map((task) => {
              const overdue = matchesDueFilter(task, 'overdue', today);
              return (
                <ClickableRow key={task.id} onOpen={() => onOpenTask(task)}>
                  <td className="max-w-xs px-4 py-3">
                    <RowOpenButton onOpen={() => onOpenTask(task)}>{task.title}</RowOpenButton>
                    {(task.blockedCount > 0 || task.subtaskCounts.total > 0 || task.repeat) && (
                      <span className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-600 dark:text-slate-300">
                        <BlockedBadge task={task} />
                        <SubtaskProgress task={task} />
                        <RepeatMark task={task} />
                      </span>
                    )}
                  </td>
                  {shown.map((col) => (
                    <td
                      key={col.id}
                      className={cn(
                        'px-4 py-3',
                        col.className,
                        col.id === 'due' && overdue && 'font-semibold text-red-700 dark:text-red-400',
                      )}
                    >
                      {col.cell(task)}
                    </td>
                  ))}
                </ClickableRow>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="flex items-center justify-between gap-2 border-t border-slate-200 px-4 py-3 text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300">
        <span>
          Showing {tasks.length} of {total} tasks
        </span>
        {query.hasNextPage && (
          <Button variant="secondary" size="sm" isLoading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
            Show more
          </Button>
        )}
      </div>
    </div>
  );
}
