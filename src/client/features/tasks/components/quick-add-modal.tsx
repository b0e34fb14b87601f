import type { NewTaskPreset } from '../../../stores/ui-store';
import { TaskFormModal } from './task-form-modal-lazy';

/** The New Task form opened from the sidebar's Quick Add (tasks feature), or from a calendar day with its date. */
export function QuickAddTaskModal({
  open,
  onClose,
  preset,
}: {
  open: boolean;
  onClose: () => void;
  preset?: NewTaskPreset | null;
}) {
  return <TaskFormModal open={open} onClose={onClose} initialDueDate={preset?.dueDate} initialProjectId={preset?.projectId} />;
}
