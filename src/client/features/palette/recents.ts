/**
 * What the palette shows with an empty field: the tasks, projects and saved views opened lately (through the palette,
 * or a task's own page), newest first, per user and per browser (localStorage; nothing here is secret: ids and titles
 * the user has seen).
 */
export type RecentKind = 'task' | 'project' | 'view';

export interface RecentItem {
  kind: RecentKind;
  id: string;
  /** '' until known (a task page opened from a link records its id before its title has loaded). */
  title: string;
  /** A line under the title (a task's project, a shared view's team), if any. */
  context?: string | null;
  /** A saved view's query string on /tasks (tasks and projects have fixed paths). */
  search?: string;
}

export const RECENT_MAX = 8;
const KINDS: readonly string[] = ['task', 'project', 'view'];
const keyOf = (userId: string) => `crewboard-recent:${userId}`;

const isRecent = (v: unknown): v is RecentItem => {
  const r = v as RecentItem;
  return (
    typeof r === 'object' &&
    r !== null &&
    KINDS.includes(r.kind) &&
    typeof r.id === 'string' &&
    typeof r.title === 'string' &&
    (r.search === undefined || typeof r.search === 'string')
  );
};

export function readRecents(userId: string): RecentItem[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(keyOf(userId)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isRecent).slice(0, RECENT_MAX) : [];
  } catch {
    return [];
  }
}

function write(userId: string, items: RecentItem[]) {
  try {
    localStorage.setItem(keyOf(userId), JSON.stringify(items.slice(0, RECENT_MAX)));
  } catch {
    // Storage full or refused (private mode): recents are a convenience.
  }
}

const same = (a: RecentItem, b: Pick<RecentItem, 'kind' | 'id'>) => a.kind === b.kind && a.id === b.id;

/** Puts the item first; a known title is kept when the new one is not known yet. */
export function addRecent(userId: string, item: RecentItem): void {
  const items = readRecents(userId);
  const old = items.find((r) => same(r, item));
  const next = { ...old, ...item, title: item.title || old?.title || '' };
  write(userId, [next, ...items.filter((r) => !same(r, item))]);
}

/** Changes an item in place (a title learned later), or removes it (`null`: the task is gone or hidden now). */
export function patchRecent(userId: string, target: Pick<RecentItem, 'kind' | 'id'>, patch: Partial<RecentItem> | null): void {
  const items = readRecents(userId);
  write(
    userId,
    patch === null ? items.filter((r) => !same(r, target)) : items.map((r) => (same(r, target) ? { ...r, ...patch } : r)),
  );
}
