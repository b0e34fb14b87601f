import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { MSG } from '../../../../domain/messages';
import type { TaskDto, TaskSort } from '../../../../domain/schemas/task';
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
import { BlockedBadge, SubtaskProgress } from './task-card';

const COLUMNS: { key: TaskSort | null; label: string }[] = [
  { key: 'title', label: 'Title' },
  { key: 'status', label: 'Status' },
  { key: 'priority', label: 'Priority' },
  { key: 'assignee', label: 'Assignee' },
  { key: 'start', label: 'Start Date' },
  { key: 'due', label: 'Due Date' },
  { key: 'project', label: 'Project' },
  { key: null, label: 'Tags' },
];

interface TaskListTableProps {
  filters: TaskQueryFilters;
  sort: TaskListSort;
  onSort: (sort: TaskSort, dir: 'asc' | 'desc') => void;
  onOpenTask: (task: TaskDto) => void;
}

/** The list view: the same filters as the board, sorted on the server by any column. */
export function TaskListTable({ filters, sort, onSort, onOpenTask }: TaskListTableProps) {
  const query = useTaskList(filters, sort);
  const tasks = flattenPages(query.data);
  const total = query.data?.pages[0]?.total ?? 0;
  const today = localDate(new Date());

  if (query.isPending) return <Spinner label="Loading tasks..." />;
  if (query.isError)
    return <EmptyState title={MSG.loadFailed} action={<Button onClick={() => void query.refetch()}>Retry</Button>} />;
  if (tasks.length === 0) return <EmptyState title="No tasks found" message="Try adjusting your search or filters" />;

  return (
    <div className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <div className="overflow-x-auto">
        <table className="w-full min-w-[63rem] text-left text-sm">
          <caption className="sr-only">Tasks, {total} in all</caption>
          <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-600 dark:border-slate-700 dark:bg-slate-800/60 dark:text-slate-300">
            <tr>
              {COLUMNS.map((col) => {
                const active = col.key !== null && sort.sort === col.key;
                const ariaSort = active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined;
                return (
                  <th key={col.label} scope="col" aria-sort={ariaSort} className="px-4 py-3 font-semibold">
                    {col.key ? (
                      <button
                        type="button"
                        className="inline-flex items-center gap-1 rounded uppercase hover:text-slate-900 dark:hover:text-white"
                        onClick={() => onSort(col.key!, active && sort.dir === 'asc' ? 'desc' : 'asc')}
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
                    {(task.blockedCount > 0 || task.subtaskCounts.total > 0) && (
                      <span className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-600 dark:text-slate-300">
                        <BlockedBadge task={task} />
                        <SubtaskProgress task={task} />
                      </span>
                    )}
                  </td>
                  <td className="px-4 py-3">
                    <TaskStatusChip task={task} />
                  </td>
                  <td className="px-4 py-3">
                    <PriorityBadge priority={task.priority} />
                  </td>
                  <td className="px-4 py-3 text-slate-700 dark:text-slate-200">
                    {task.assignee?.fullName ?? <span className="text-slate-500 dark:text-slate-400">Unassigned</span>}
                  </td>
                  <td className="whitespace-nowrap px-4 py-3 text-slate-700 dark:text-slate-200">
                    {task.startDate ? (
                      formatLongDate(task.startDate)
                    ) : (
                      <span className="text-slate-500 dark:text-slate-400">No start date</span>
                    )}
                  </td>
                  <td
                    className={cn(
                      'whitespace-nowrap px-4 py-3 text-slate-700 dark:text-slate-200',
                      overdue && 'font-semibold text-red-700 dark:text-red-400',
                    )}
                  >
                    {task.dueDate ? (
                      formatLongDate(task.dueDate)
                    ) : (
                      <span className="text-slate-500 dark:text-slate-400">No due date</span>
                    )}
                  </td>
                  <td className="px-4 py-3 text-slate-700 dark:text-slate-200">{task.projectName}</td>
                  <td className="px-4 py-3">
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
                  </td>
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
