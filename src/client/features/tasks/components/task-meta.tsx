import { format, parseISO } from 'date-fns';
import { TASK_PRIORITY_LABELS, TASK_STATUS_LABELS, type BadgeTone, type TaskStatus, priorityTone } from '../../../../domain/constants';
import type { TaskDto } from '../../../../domain/schemas/task';
import { Badge } from '../../../components/ui/misc';

const STATUS_TONE: Record<TaskStatus, BadgeTone> = {
  todo: 'secondary',
  in_progress: 'info',
  review: 'warning',
  completed: 'success',
};

export function StatusChip({ status }: { status: TaskStatus }) {
  return <Badge tone={STATUS_TONE[status]}>{TASK_STATUS_LABELS[status]}</Badge>;
}

export function PriorityBadge({ priority }: { priority: TaskDto['priority'] }) {
  return <Badge tone={priorityTone(priority)}>{TASK_PRIORITY_LABELS[priority]}</Badge>;
}

/** Card date format (spec §9): 'MMM dd'. */
export const formatCardDate = (date: string) => format(parseISO(date), 'MMM dd');
export const formatLongDate = (date: string) => format(parseISO(date), 'MMM dd, yyyy');
