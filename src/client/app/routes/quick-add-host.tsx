import { QuickAddTaskModal } from '../../features/tasks/components/quick-add-modal';
import { useQuickAddStore } from '../../stores/ui-store';

export function QuickAddHost() {
  const isOpen = useQuickAddStore((s) => s.isOpen);
  const setOpen = useQuickAddStore((s) => s.setOpen);
  return <QuickAddTaskModal open={isOpen} onClose={() => setOpen(false)} />;
}
