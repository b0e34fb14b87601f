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

const cardDates = new Map<string, string>();

/**
 * Card date format (spec §9): 'MMM dd'. Remembered per date: a board draws 200 cards with a few dozen distinct
 * due dates, and date-fns' parse and format were 2% of the cold render.
 */
export function formatCardDate(date: string): string {
  let shown = cardDates.get(date);
  if (shown === undefined) {
    if (cardDates.size >= 2000) cardDates.clear();
    shown = format(parseISO(date), 'MMM dd');
    cardDates.set(date, shown);
  }
  return shown;
}
export const formatLongDate = (date: string) => format(parseISO(date), 'MMM dd, yyyy');
