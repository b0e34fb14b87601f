/**
 * Per-project workflows (issue 36, decision 0024): each project's ordered statuses, each in one of five categories.
 * Every rule here follows the category, never a status's name or key: progress, 'Completed', overdue and due soon,
 * cycle time, moving a task between projects, the All Projects board's columns. The spec's four statuses are the
 * default workflow, and for a project that keeps them every result here equals what the fixed four gave.
 *
 * Validation returns a typed result whose `reason` is one of WORKFLOW_RULE_REASONS; their codes and texts are the
 * table WORKFLOW_ERRORS in schemas/workflow.ts.
 */
import { isExactOrder } from './checklist';
import { TASK_STATUS_LABELS, TASK_STATUSES, type TaskStatus } from './constants';
import { projectProgress } from './progress';

// ---------------------------------------------------------------------------------------------------------------
// Categories

/** What a status means to every rule, in the order work flows (the All Projects board's column order). */
export const STATUS_CATEGORIES = ['backlog', 'unstarted', 'started', 'completed', 'canceled'] as const;
export type StatusCategory = (typeof STATUS_CATEGORIES)[number];

/** Each category's label, and its column's colour on a board that shows categories (the defaults' where they have one). */
const CATEGORY_LOOK: Record<StatusCategory, readonly [label: string, color: string]> = {
  backlog: ['Backlog', '#94a3b8'],
  unstarted: ['Not started', '#64748b'],
  started: ['Started', '#0ea5e9'],
  completed: ['Completed', '#22c55e'],
  canceled: ['Canceled', '#ef4444'],
};

const byCategory = <T>(pick: (look: readonly [string, string]) => T) =>
  Object.fromEntries(STATUS_CATEGORIES.map((c) => [c, pick(CATEGORY_LOOK[c])])) as Record<StatusCategory, T>;

export const STATUS_CATEGORY_LABELS = byCategory(([label]) => label);
export const STATUS_CATEGORY_COLORS = byCategory(([, color]) => color);

export const isStatusCategory = (value: unknown): value is StatusCategory =>
  typeof value === 'string' && (STATUS_CATEGORIES as readonly string[]).includes(value);

/** Closed work: left out of overdue, due soon, open counts and work in progress. */
export const isClosed = (category: StatusCategory): boolean => category === 'completed' || category === 'canceled';

/** Where new or reopened work waits (a workflow needs one of these). */
export const isNotStarted = (category: StatusCategory): boolean => category === 'backlog' || category === 'unstarted';

// ---------------------------------------------------------------------------------------------------------------
// Statuses and the default workflow

/** What the rules read of a status. */
export interface StatusRule {
  key: string;
  name: string;
  category: StatusCategory;
}

/** A status as the API gives it (schemas/workflow.ts `statusDto`). */
export interface WorkflowStatus extends StatusRule {
  id: string;
  color: string;
  position: number;
  wipLimit: number | null;
}

/**
 * The keys the dashboard's 'Tasks in Progress' counts in one workflow: its started statuses, less the last of them when
 * there are two or more (decision 0024). For the default four that is `in_progress` alone, the spec's count; in
 * Design → Build → QA it is Design and Build, the last started step being the check step.
 */
export function inProgressKeys(statuses: readonly (StatusRule & { position: number })[]): string[] {
  const started = inWorkflowOrder(statuses.filter((s) => s.category === 'started')).map((s) => s.key);
  return started.length > 1 ? started.slice(0, -1) : started;
}

export const STATUS_LIMITS = {
  nameMax: 40,
  /** A project holds at most this many statuses (a board of 50 columns is already past use). */
  perProjectMax: 50,
  /** WIP limits stop here: the column is an integer, and no column holds more cards than this on purpose. */
  wipLimitMax: 10_000,
  /** A key is a name's slug (at most nameMax) and a suffix such as `_12`. */
  keyMax: 48,
} as const;

/** The colour of each default status: the 500 shade of the tint the board's chips use today (task-visuals.tsx). */
const DEFAULT_COLORS: Record<TaskStatus, string> = {
  todo: '#64748b',
  in_progress: '#0ea5e9',
  review: '#f59e0b',
  completed: '#22c55e',
};

const DEFAULT_CATEGORIES: Record<TaskStatus, StatusCategory> = {
  todo: 'unstarted',
  in_progress: 'started',
  review: 'started',
  completed: 'completed',
};

/** The spec's four: every new project starts with them, and every existing project was migrated to exactly these. */
export const DEFAULT_STATUSES: readonly (StatusRule & { key: TaskStatus; color: string; position: number; wipLimit: null })[] =
  TASK_STATUSES.map((key, position) => ({
    key,
    name: TASK_STATUS_LABELS[key],
    category: DEFAULT_CATEGORIES[key],
    color: DEFAULT_COLORS[key],
    position,
    wipLimit: null,
  }));

/** The statuses in workflow order (by position; the list may come in any order). */
export const inWorkflowOrder = <T extends { position: number }>(statuses: readonly T[]): T[] =>
  [...statuses].sort((a, b) => a.position - b.position);

/** True when the workflow is the default four: the same keys, names and categories, in that order. */
export function isDefaultWorkflow(statuses: readonly (StatusRule & { position: number })[]): boolean {
  const ordered = inWorkflowOrder(statuses);
  return (
    ordered.length === DEFAULT_STATUSES.length &&
    ordered.every((s, i) => {
      const d = DEFAULT_STATUSES[i]!;
      return s.key === d.key && s.name === d.name && s.category === d.category;
    })
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Validation

/** Every way a workflow rule refuses (codes and texts: WORKFLOW_ERRORS in schemas/workflow.ts). */
export const WORKFLOW_RULE_REASONS = [
  'status_name_required',
  'status_name_too_long',
  'status_name_taken',
  'status_color_invalid',
  'status_wip_limit_invalid',
  'workflow_needs_open_status',
  'workflow_needs_completed_status',
  'too_many_statuses',
  'status_not_found',
  'status_not_empty',
  'status_move_target_invalid',
  'status_order_mismatch',
] as const;
export type WorkflowRuleReason = (typeof WORKFLOW_RULE_REASONS)[number];

export type RuleResult<T> = { ok: true; value: T } | { ok: false; reason: WorkflowRuleReason };
const ok = <T>(value: T): RuleResult<T> => ({ ok: true, value });
const fail = <T = never>(reason: WorkflowRuleReason): RuleResult<T> => ({ ok: false, reason });

/** Length in characters as PostgreSQL's char_length counts them (code points, not UTF-16 units). */
const charLength = (s: string) => [...s].length;

/** How names compare for uniqueness: trimmed, case-insensitively (the database's unique index is on lower(name)). */
export const nameIdentity = (name: string) => name.trim().normalize('NFC').toLowerCase();

/**
 * A status name: trimmed, 1 to 40 characters, unique in the project case-insensitively. `others` are the project's
 * live statuses; `selfId` is the status being renamed (its own name is no clash).
 */
export function validateStatusName(
  name: string,
  others: readonly { id: string; name: string }[],
  selfId?: string,
): RuleResult<string> {
  const trimmed = name.trim();
  if (trimmed.length === 0) return fail('status_name_required');
  if (charLength(trimmed) > STATUS_LIMITS.nameMax) return fail('status_name_too_long');
  const identity = nameIdentity(trimmed);
  if (others.some((o) => o.id !== selfId && nameIdentity(o.name) === identity)) return fail('status_name_taken');
  return ok(trimmed);
}

const COLOR = /^#[0-9a-f]{6}$/i;

/** A colour as `#rrggbb`, kept in lower case. */
export function validateStatusColor(color: string): RuleResult<string> {
  return COLOR.test(color) ? ok(color.toLowerCase()) : fail('status_color_invalid');
}

/** A WIP limit: a positive whole number (at most STATUS_LIMITS.wipLimitMax), or null for none. */
export function validateWipLimit(limit: number | null): RuleResult<number | null> {
  if (limit === null) return ok(null);
  return Number.isInteger(limit) && limit >= 1 && limit <= STATUS_LIMITS.wipLimitMax
    ? ok(limit)
    : fail('status_wip_limit_invalid');
}

/** A proposed change to a workflow's set of categories. */
export type WorkflowChange =
  | { kind: 'add'; category: StatusCategory }
  | { kind: 'recategorise'; id: string; category: StatusCategory }
  | { kind: 'delete'; id: string };

/**
 * Whether a workflow may take a change: it keeps at least one status in `backlog` or `unstarted` (where new work
 * waits) and at least one in `completed` (what progress counts), and holds at most STATUS_LIMITS.perProjectMax.
 * Returns the categories after the change.
 */
export function checkWorkflowChange(
  statuses: readonly { id: string; category: StatusCategory }[],
  change: WorkflowChange,
): RuleResult<StatusCategory[]> {
  let after: StatusCategory[];
  if (change.kind === 'add') {
    if (statuses.length >= STATUS_LIMITS.perProjectMax) return fail('too_many_statuses');
    after = [...statuses.map((s) => s.category), change.category];
  } else {
    if (!statuses.some((s) => s.id === change.id)) return fail('status_not_found');
    after =
      change.kind === 'delete'
        ? statuses.filter((s) => s.id !== change.id).map((s) => s.category)
        : statuses.map((s) => (s.id === change.id ? change.category : s.category));
  }
  if (!after.some(isNotStarted)) return fail('workflow_needs_open_status');
  if (!after.includes('completed')) return fail('workflow_needs_completed_status');
  return ok(after);
}

/**
 * Deleting a status: the workflow must allow it (checkWorkflowChange), and a status that has tasks needs `moveTo`,
 * another live status of the same project, where its tasks go in the same transaction. Returns the target (null when
 * there were no tasks to move and none was named).
 */
export function planStatusDelete(
  statuses: readonly { id: string; category: StatusCategory }[],
  id: string,
  taskCount: number,
  moveTo?: string,
): RuleResult<string | null> {
  const allowed = checkWorkflowChange(statuses, { kind: 'delete', id });
  if (!allowed.ok) return allowed;
  if (moveTo !== undefined && (moveTo === id || !statuses.some((s) => s.id === moveTo))) {
    return fail('status_move_target_invalid');
  }
  if (taskCount > 0 && moveTo === undefined) return fail('status_not_empty');
  return ok(moveTo ?? null);
}

/** A new order: `ids` must name every current status exactly once. Returns each id with its new position (0…n−1). */
export function reorder(
  ids: readonly string[],
  current: readonly { id: string }[],
): RuleResult<{ id: string; position: number }[]> {
  if (
    !isExactOrder(
      current.map((s) => s.id),
      ids,
    )
  )
    return fail('status_order_mismatch');
  return ok(ids.map((id, position) => ({ id, position })));
}

// ---------------------------------------------------------------------------------------------------------------
// Keys

/** What a status key looks like: lower-case letters and digits in runs joined by single `_`. */
export const STATUS_KEY_PATTERN = /^[a-z0-9]+(?:_[a-z0-9]+)*$/;

/** Whether `value` can be a status key (the URL's and saved views' `status`; the API's `statusKey` schema). */
export const isStatusKeyShaped = (value: string): boolean =>
  value.length <= STATUS_LIMITS.keyMax && STATUS_KEY_PATTERN.test(value);

/** The key of a name with no ASCII letter ('Готово', '🚀', '2025'). */
const FALLBACK_KEY = 'status';

/** A name's slug: ASCII lower case, accents dropped, every other run of characters one `_`, at most nameMax long. */
export function statusSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, STATUS_LIMITS.nameMax)
    .replace(/^_+|_+$/g, '');
  return /[a-z]/.test(slug) ? slug : FALLBACK_KEY;
}

/**
 * The key of a new status: its name's slug, or with `_2`, `_3`… when the project has the key already. `existingKeys`
 * includes the keys of deleted statuses (they are kept, so history keeps naming them, and never reused). A key never
 * changes afterwards, whatever the status is renamed to: it is what tasks, filters, saved views, the history and API
 * clients hold.
 */
export function statusKeyFor(name: string, existingKeys: Iterable<string>): string {
  const taken = new Set(existingKeys);
  const base = statusSlug(name);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const key = `${base}_${n}`;
    if (!taken.has(key)) return key;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Category rules

export type CategoryCounts = Partial<Record<StatusCategory, number>>;

/** Task counts per key summed into counts per category (a key the workflow does not have is not counted). */
export function countsByCategory(statuses: readonly StatusRule[], countsByKey: Readonly<Record<string, number>>): CategoryCounts {
  const counts: CategoryCounts = {};
  for (const s of statuses) counts[s.category] = (counts[s.category] ?? 0) + (countsByKey[s.key] ?? 0);
  return counts;
}

/**
 * A project's progress: completed ÷ (all − canceled), in whole percent, rounded half up, 0 when nothing counts
 * (progress.ts `projectProgress`, the rule the SQL applies too). Canceled work is neither done nor left to do.
 */
export function progressOf(counts: CategoryCounts): number {
  const all = STATUS_CATEGORIES.reduce((sum, c) => sum + (counts[c] ?? 0), 0);
  return projectProgress(counts.completed ?? 0, all - (counts.canceled ?? 0));
}

/** One entry of a task's status history: when it entered a status, and that status's category. */
export interface StatusEntry {
  at: Date;
  category: StatusCategory;
}

/**
 * A task's cycle time in milliseconds: from its first entry into a started status to its entry into the completed
 * category it is in now (moves between two completed statuses do not restart it). Null when the task is not completed
 * at the end of `history`, or was never started before. `history` is in time order, its first entry the status the
 * task was created in.
 */
export function cycleTime(history: readonly StatusEntry[]): number | null {
  const last = history.at(-1);
  if (!last || last.category !== 'completed') return null;
  let done = history.length - 1;
  while (done > 0 && history[done - 1]!.category === 'completed') done--;
  const started = history.slice(0, done).find((e) => e.category === 'started');
  return started ? history[done]!.at.getTime() - started.at.getTime() : null;
}

// ---------------------------------------------------------------------------------------------------------------
// Moving a task to another project

/**
 * The categories to try for a task of `category` in a workflow that has none of it: nearest first in
 * STATUS_CATEGORIES, the earlier of two equally near (moving never marks work further along than it was), so a
 * canceled task lands in completed, a started one in unstarted, a backlog one in unstarted.
 */
export function fallbackCategories(category: StatusCategory): StatusCategory[] {
  const at = STATUS_CATEGORIES.indexOf(category);
  return STATUS_CATEGORIES.map((c, i) => ({ c, distance: Math.abs(i - at), i }))
    .sort((a, b) => a.distance - b.distance || a.i - b.i)
    .map(({ c }) => c);
}

/**
 * The status a task takes when it moves to a project with `target`'s workflow: the status with its own key when the
 * target has one in the same category (so between two default workflows a task stays where it was, Review included,
 * as it did before workflows), else the first status (by position) of its category there, else of the nearest
 * category (fallbackCategories). Every workflow has an unstarted or backlog status and a completed one, so a valid
 * workflow always gives one; an empty list gives undefined.
 */
export function mapStatusToProject<T extends { key: string; category: StatusCategory; position: number }>(
  from: { key?: string; category: StatusCategory },
  target: readonly T[],
): T | undefined {
  const same = target.find((s) => s.key === from.key && s.category === from.category);
  if (same) return same;
  const ordered = inWorkflowOrder(target);
  for (const category of fallbackCategories(from.category)) {
    const found = ordered.find((s) => s.category === category);
    if (found) return found;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// The board

export type BoardColumn =
  /** One status of the project (a single project's board, or the default four on All Projects). */
  | { kind: 'status'; key: string; name: string; category: StatusCategory; color: string; wipLimit: number | null }
  /** One category across projects whose workflows differ (each card then shows its own status name). */
  | { kind: 'category'; category: StatusCategory; name: string; color: string };

const statusColumn = (s: StatusRule & { color: string; wipLimit: number | null }): BoardColumn => ({
  kind: 'status',
  key: s.key,
  name: s.name,
  category: s.category,
  color: s.color,
  wipLimit: s.wipLimit,
});

/**
 * The board's columns for the workflows of the projects it shows. One project: its statuses, in order. Several (All
 * Projects) that all use the default four: exactly today's four columns (no WIP limits: a limit is one project's).
 * Several whose workflows differ: the categories in use, in category order. No project: the default four.
 */
export function boardColumns(workflows: readonly (readonly WorkflowStatus[])[]): BoardColumn[] {
  if (workflows.length === 1) return inWorkflowOrder(workflows[0]!).map(statusColumn);
  if (workflows.every(isDefaultWorkflow)) return DEFAULT_STATUSES.map(statusColumn);
  const used = new Set(workflows.flatMap((w) => w.map((s) => s.category)));
  return STATUS_CATEGORIES.filter((c) => used.has(c)).map((category) => ({
    kind: 'category',
    category,
    name: STATUS_CATEGORY_LABELS[category],
    color: STATUS_CATEGORY_COLORS[category],
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// WIP limits

export const WORKFLOW_TEXT = {
  overWip: 'Over WIP limit',
  wipLimit: 'WIP limit',
  workflow: 'Workflow',
  addStatus: 'Add status',
  moveTasksTo: 'Move its tasks to',
  deleteStatus: 'Delete status',
  projectSettings: 'Project settings',
} as const;

/** Over the limit: more cards than it allows (at the limit is full, not over). A soft limit: moves are never refused. */
export const overWip = (count: number, wipLimit: number | null): boolean => wipLimit !== null && count > wipLimit;

/**
 * A column header's count: 'count', or 'count / limit' with a WIP limit; over the limit it is marked (`isOver`) and
 * `overText` is the words that say so, shown and read out, not told by colour alone.
 */
export function wipHeader(count: number, wipLimit: number | null): { text: string; isOver: boolean; overText: string | null } {
  const isOver = overWip(count, wipLimit);
  return {
    text: wipLimit === null ? String(count) : `${count} / ${wipLimit}`,
    isOver,
    overText: isOver ? WORKFLOW_TEXT.overWip : null,
  };
}
