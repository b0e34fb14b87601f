import { Plus } from 'lucide-react';
import { longDayLabel } from '../../../../domain/calendar';
import type { OccurrenceDto } from '../../../../domain/schemas/repeat';
import type { TaskDto } from '../../../../domain/schemas/task';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { OccurrenceChip } from './occurrence-chip';
import { TaskLink } from './task-chip';

interface DayTasksDialogProps {
  /** The day whose '+N more' was pressed; null when closed. */
  date: string | null;
  tasks: TaskDto[];
  /** Repeating tasks' future dates that day. */
  occurrences?: OccurrenceDto[];
  onClose: () => void;
  /** 'Add task'. None: the caller adds no tasks here (issue 41). */
  onAdd?: (date: string) => void;
}

/** A day's full list, from its '+N more' button: each task a link to its page. */
export function DayTasksDialog({ date, tasks, occurrences = [], onClose, onAdd }: DayTasksDialogProps) {
  const label = date ? longDayLabel(date) : '';
  const future =
    occurrences.length > 0 ? `, ${occurrences.length} ${occurrences.length === 1 ? 'repeat' : 'repeats'} to come` : '';
  return (
    <Modal
      open={date !== null}
      onClose={onClose}
      title={label}
      description={`${tasks.length} ${tasks.length === 1 ? 'task' : 'tasks'} due${future}`}
      size="md"
      footer={
        date &&
        onAdd && (
          <Button variant="secondary" onClick={() => onAdd(date)} aria-label={`Add task on ${label}`}>
            <Plus className="h-4 w-4" aria-hidden />
            Add task
          </Button>
        )
      }
    >
      <ul className="flex flex-col gap-2">
        {tasks.map((task) => (
          <li key={task.id}>
            <TaskLink task={task} />
          </li>
        ))}
        {occurrences.map((o) => (
          <li key={`${o.seriesId}-${o.date}`}>
            <OccurrenceChip occurrence={o} size="full" />
          </li>
        ))}
      </ul>
    </Modal>
  );
}
