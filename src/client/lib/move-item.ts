/** The list with the element at `from` moved to index `to` (both clamped); the same list when nothing moves. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const last = list.length - 1;
  if (from < 0 || from > last) return [...list];
  const target = Math.max(0, Math.min(last, to));
  if (target === from) return [...list];
  const next = [...list];
  const [moved] = next.splice(from, 1);
  next.splice(target, 0, moved as T);
  return next;
}

/** The list with the item `id` put where the item `overId` is (a drop onto another row); unchanged if either is unknown. */
export function moveById<T extends { id: string }>(list: readonly T[], id: string, overId: string): T[] {
  const from = list.findIndex((item) => item.id === id);
  const to = list.findIndex((item) => item.id === overId);
  return from < 0 || to < 0 ? [...list] : moveItem(list, from, to);
}
