import {
  ChevronDown,
  ChevronsUp,
  ChevronUp,
  Circle,
  CircleCheck,
  CircleDashed,
  CircleDot,
  CircleX,
  Equal,
  Eye,
  type LucideIcon,
} from 'lucide-react';
import {
  type BadgeTone,
  priorityTone,
  TASK_PRIORITIES,
  TASK_PRIORITY_LABELS,
  TASK_STATUS_LABELS,
  TASK_STATUSES,
  type TaskPriority,
  type TaskStatus,
  isDefaultStatusKey,
} from '../../domain/constants';
import type { StatusCategory } from '../../domain/workflow';
import type { TaskDto } from '../../domain/schemas/task';
import { cn } from '../lib/cn';
import { defaultLookOf } from '../lib/default-column';
import { useProjectStatuses } from '../lib/queries/statuses';
import { Badge } from './ui/badge';
import { labelled } from './ui/options-select';

/**
 * How a task's status and priority look wherever a task is shown (the board's cards and list, the calendar's chips):
 * each has a colour AND an icon (and, where there is room, its name), so neither is told by colour alone. Text
 * colours keep 4.5:1 on their tints in both themes.
 */
const STATUS_LOOK: Record<TaskStatus, { icon: LucideIcon; tint: string; tone: BadgeTone }> = {
  todo: {
    icon: Circle,
    tint: 'border-slate-300 bg-slate-50 text-slate-800 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100',
    tone: 'secondary',
  },
  in_progress: {
    icon: CircleDot,
    tint: 'border-sky-300 bg-sky-50 text-sky-900 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-100',
    tone: 'info',
  },
  review: {
    icon: Eye,
    tint: 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100',
    tone: 'warning',
  },
  completed: {
    icon: CircleCheck,
    tint: 'border-green-300 bg-green-50 text-green-900 dark:border-green-800 dark:bg-green-950 dark:text-green-100',
    tone: 'success',
  },
};

const PRIORITY_LOOK: Record<TaskPriority, { icon: LucideIcon; colour: string }> = {
  urgent: { icon: ChevronsUp, colour: 'text-red-700 dark:text-red-300' },
  high: { icon: ChevronUp, colour: 'text-orange-700 dark:text-orange-300' },
  medium: { icon: Equal, colour: 'text-slate-600 dark:text-slate-300' },
  low: { icon: ChevronDown, colour: 'text-slate-600 dark:text-slate-300' },
};

/** A status's border, tint and text colours (the calendar's chips and its legend). */
export const statusTint = (status: TaskStatus) => STATUS_LOOK[status].tint;

export const statusText = (status: TaskStatus) => TASK_STATUS_LABELS[status];
export const priorityText = (priority: TaskPriority) => `${TASK_PRIORITY_LABELS[priority]} priority`;

/** The status and priority selects' options, in the domain's order. */
export const STATUS_OPTIONS = labelled(TASK_STATUSES, TASK_STATUS_LABELS);
export const PRIORITY_OPTIONS = labelled(TASK_PRIORITIES, TASK_PRIORITY_LABELS);

const iconClass = (...classes: (string | undefined)[]) => cn('h-3.5 w-3.5 shrink-0', ...classes);

export function StatusIcon({ status, className }: { status: TaskStatus; className?: string }) {
  const Icon = STATUS_LOOK[status].icon;
  return <Icon className={iconClass(className)} aria-hidden />;
}

export function PriorityIcon({ priority, className }: { priority: TaskPriority; className?: string }) {
  const { icon: Icon, colour } = PRIORITY_LOOK[priority];
  return <Icon className={iconClass(colour, className)} aria-hidden />;
}

/** The status as a named badge (the board's cards and list). */
export function StatusChip({ status }: { status: TaskStatus }) {
  return <Badge tone={STATUS_LOOK[status].tone}>{statusText(status)}</Badge>;
}

/** The priority as a named badge (the board's cards and list). */
export function PriorityBadge({ priority }: { priority: TaskPriority }) {
  return <Badge tone={priorityTone(priority)}>{TASK_PRIORITY_LABELS[priority]}</Badge>;
}

/** A status of any project's workflow, as chips and selects show it. */
export interface StatusLook {
  key: string;
  name: string;
  category: StatusCategory;
  color: string;
}

/** The icon of a status that is not one of the default four: by its category. */
const CATEGORY_ICON: Record<StatusCategory, LucideIcon> = {
  backlog: CircleDashed,
  unstarted: Circle,
  started: CircleDot,
  completed: CircleCheck,
  canceled: CircleX,
};

/**
 * A status of the task's own workflow as a named badge: the default four keep their look (STATUS_LOOK) under their
 * (possibly renamed) name; any other status shows an icon by its category in its colour, and its name.
 */
export function WorkflowStatusChip({ status }: { status: StatusLook }) {
  if (isDefaultStatusKey(status.key)) return <Badge tone={STATUS_LOOK[status.key].tone}>{status.name}</Badge>;
  const Icon = CATEGORY_ICON[status.category];
  return (
    <Badge className="gap-1 border border-slate-300 bg-white text-slate-800 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100">
      <Icon className="h-3 w-3 shrink-0" style={{ color: status.color }} strokeWidth={3} aria-hidden />
      {status.name}
    </Badge>
  );
}

/** A workflow's statuses as a select's options, in workflow order. */
export const workflowStatusOptions = (statuses: readonly { key: string; name: string }[]) =>
  statuses.map((s) => ({ value: s.key, label: s.name }));

/**
 * A task's own status (name, colour, category) when it is not one of the default four: its project's statuses are
 * asked for (once per project, shared by every task of it). Undefined for a default key (its look is STATUS_LOOK's)
 * and until they load.
 */
export function useOwnStatus(task: Pick<TaskDto, 'projectId' | 'status'>): StatusLook | undefined {
  const own = !isDefaultStatusKey(task.status);
  const statuses = useProjectStatuses(own ? task.projectId : null).data;
  return own ? statuses?.find((s) => s.key === task.status) : undefined;
}

/** What to call a task's status: its own status's name when known, else the default look's label. */
export const taskStatusName = (task: Pick<TaskDto, 'status' | 'statusCategory'>, own: StatusLook | undefined) =>
  own?.name ?? statusText(defaultLookOf(task));

/** A task's status chip wherever its workflow is not at hand (the list): its own status once its project's load. */
export function TaskStatusChip({ task }: { task: Pick<TaskDto, 'projectId' | 'status' | 'statusCategory'> }) {
  const own = useOwnStatus(task);
  return own ? <WorkflowStatusChip status={own} /> : <StatusChip status={defaultLookOf(task)} />;
}
