import { CalendarClock } from 'lucide-react';
import { Link } from 'react-router';
import { TASK_PRIORITY_LABELS, priorityTone } from '../../../../domain/constants';
import { DASHBOARD_TEXT } from '../../../../domain/dashboard';
import { deadlineLabel, formatShortDate } from '../../../../domain/dates';
import { MSG } from '../../../../domain/messages';
import type { DashboardDto } from '../../../../domain/schemas/dashboard';
import { Badge } from '../../../components/ui/badge';
import { cn } from '../../../lib/cn';
import { projectTasksPath } from '../../../lib/paths';
import { Panel } from './panel';

type Deadline = DashboardDto['upcomingDeadlines'][number];

/** The dashboard's next deadlines, and a link to My work, which has all of one's open tasks. */
export function UpcomingDeadlines({ items, today }: { items: Deadline[]; today: string }) {
  return (
    <Panel id="deadlines" title={DASHBOARD_TEXT.upcomingDeadlines} icon={<CalendarClock className="h-5 w-5" />}>
      {items.length === 0 ? (
        <p className="flex flex-1 items-center justify-center rounded-lg border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300">
          {MSG.noUpcomingDeadlines}
        </p>
      ) : (
        <ul className="space-y-3">
          {items.map((task) => (
            <DeadlineItem key={task.id} task={task} today={today} />
          ))}
        </ul>
      )}
      <p className="mt-4 text-right">
        <Link
          to="/my-work"
          className="text-sm font-medium text-brand-700 hover:underline focus-visible:underline dark:text-indigo-300"
        >
          View all
        </Link>
      </p>
    </Panel>
  );
}

function DeadlineItem({ task, today }: { task: Deadline; today: string }) {
  const due = deadlineLabel(task.dueDate, today);
  return (
    <li
      className={cn(
        'flex items-start justify-between gap-3 rounded-lg border p-3',
        due.isOverdue
          ? 'border-red-200 bg-red-50 dark:border-red-900 dark:bg-red-950/40'
          : 'border-slate-200 dark:border-slate-700',
      )}
    >
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium" title={task.title}>
          {task.title}
        </p>
        <p className="mt-0.5 truncate text-xs text-slate-600 dark:text-slate-300">
          <Link to={projectTasksPath(task.projectId)} className="hover:underline focus-visible:underline">
            {task.projectName}
          </Link>
        </p>
      </div>
      <div className="flex shrink-0 flex-col items-end gap-1">
        <Badge tone={due.isOverdue ? 'danger' : due.label === 'Today' ? 'warning' : 'info'}>
          <time dateTime={task.dueDate} title={formatShortDate(task.dueDate)}>
            {due.label}
          </time>
        </Badge>
        <Badge tone={priorityTone(task.priority)}>{TASK_PRIORITY_LABELS[task.priority]}</Badge>
      </div>
    </li>
  );
}
