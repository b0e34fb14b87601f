/** The New Task form opened from the sidebar's Quick Add (tasks feature). */
export function QuickAddTaskModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  void open;
  void onClose;
  return null;
}
