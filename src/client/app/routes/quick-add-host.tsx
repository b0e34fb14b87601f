import { QuickAddTaskModal } from '../../features/tasks/components/quick-add-modal';
import { useQuickAddStore } from '../../stores/ui-store';

export function QuickAddHost() {
  const isOpen = useQuickAddStore((s) => s.isOpen);
  const setOpen = useQuickAddStore((s) => s.setOpen);
  const preset = useQuickAddStore((s) => s.preset);
  return <QuickAddTaskModal open={isOpen} onClose={() => setOpen(false)} preset={preset} />;
}
