// Reordering is shared with the project settings' workflow (lib/move-item.ts).
export { moveById, moveItem } from '../../../../lib/move-item';

/** 'done/total' of a checklist. */
export function checklistProgress(items: readonly { done: boolean }[]): { done: number; total: number } {
  return { done: items.filter((item) => item.done).length, total: items.length };
}
