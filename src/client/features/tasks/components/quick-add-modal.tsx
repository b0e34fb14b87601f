import { TaskFormModal } from './task-form-modal-lazy';

/** The New Task form opened from the sidebar's Quick Add (tasks feature). */
export function QuickAddTaskModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  return <TaskFormModal open={open} onClose={onClose} />;
}
