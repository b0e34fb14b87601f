import { type ComponentType, useId } from 'react';
import { Link } from 'react-router';
import type { MyWorkGroup as GroupName } from '../../../../domain/my-work';
import type { TaskDto } from '../../../../domain/schemas/task';
import { cn } from '../../../lib/cn';
import { GROUP_EMPTY, GROUP_LABELS } from './my-work-text';
import { StatusMenu } from './status-menu';

/** What My work needs of the board's card (features/tasks TaskCardView, passed in by the route). */
export interface TaskCardProps {
  task: TaskDto;
  isOverdue?: boolean;
  titleId?: string;
  className?: string;
}
export type TaskCardComponent = ComponentType<TaskCardProps>;

interface MyWorkGroupProps {
  group: GroupName;
  tasks: TaskDto[];
  TaskCard: TaskCardComponent;
  onStatusChange: (task: TaskDto, status: string) => void;
}

const TONE: Partial<Record<GroupName, string>> = {
  overdue: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200',
  today: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
};

/** One group of My work: its heading with a count, and its cards (or a quiet line when it has none). */
export function MyWorkGroup({ group, tasks, TaskCard, onStatusChange }: MyWorkGroupProps) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} data-group={group}>
      <h2 id={headingId} className="mb-3 flex items-center gap-2 text-base font-semibold">
        {GROUP_LABELS[group]}
        <span
          className={cn(
            'rounded-full px-2 py-0.5 text-xs font-semibold',
            TONE[group] ?? 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
          )}
        >
          {tasks.length}
          <span className="sr-only"> {tasks.length === 1 ? 'task' : 'tasks'}</span>
        </span>
      </h2>
      {tasks.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 px-4 py-3 text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300">
          {GROUP_EMPTY[group]}
        </p>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {tasks.map((task) => (
            <MyWorkCard
              key={task.id}
              task={task}
              isOverdue={group === 'overdue'}
              TaskCard={TaskCard}
              onStatusChange={onStatusChange}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

interface MyWorkCardProps {
  task: TaskDto;
  isOverdue: boolean;
  TaskCard: TaskCardComponent;
  onStatusChange: (task: TaskDto, status: string) => void;
}

/**
 * The board's card as a link to the task's page, under its project's name (My work spans projects and teams), with
 * the status menu in its corner (outside the link: no control inside a control).
 */
function MyWorkCard({ task, isOverdue, TaskCard, onStatusChange }: MyWorkCardProps) {
  const titleId = useId();
  return (
    <li className="flex min-w-0 flex-col" data-testid="my-work-card">
      <p className="mb-1 truncate px-1 text-xs font-medium text-slate-600 dark:text-slate-300" title={task.projectName}>
        {task.projectName}
      </p>
      <div className="relative flex-1">
        <Link
          to={`/tasks/${task.id}`}
          aria-labelledby={titleId}
          className="block h-full rounded-lg outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2 dark:focus-visible:ring-offset-slate-900"
        >
          <TaskCard task={task} isOverdue={isOverdue} titleId={titleId} className="h-full pr-12 hover:border-brand-600/60" />
        </Link>
        <StatusMenu task={task} onChange={onStatusChange} className="absolute right-2 top-2" />
      </div>
    </li>
  );
}
