import { TASK_DETAIL_LIMITS } from './constants';

/**
 * Checklist rules shared by the server and the client. Items are ordered by a fractional position: an appended item
 * goes after the last one (max + 1, computed by the insert itself); a reorder sends the whole list and rewrites the
 * positions 1..n.
 */

/** True when a checklist of `count` items takes no more. */
export const isChecklistFull = (count: number): boolean => count >= TASK_DETAIL_LIMITS.checklistItemsMax;

/** True when `ids` names every one of `currentIds` exactly once and nothing else (ids compared case-insensitively). */
export function isExactOrder(currentIds: readonly string[], ids: readonly string[]): boolean {
  if (ids.length !== currentIds.length) return false;
  const current = new Set(currentIds.map((id) => id.toLowerCase()));
  const seen = new Set<string>();
  for (const id of ids) {
    const key = id.toLowerCase();
    if (!current.has(key) || seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}
