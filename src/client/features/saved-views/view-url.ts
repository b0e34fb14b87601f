import { DUE_FILTERS, START_FILTERS, SUBTASK_FILTERS, TASK_PRIORITIES, TASK_SORTS } from '../../../domain/constants';
import { CUSTOM_FIELD_LIMITS, parseFieldFilter } from '../../../domain/custom-fields';
import type { SavedViewConfig } from '../../../domain/schemas/saved-view';
import { isStatusKeyShaped, STATUS_CATEGORIES } from '../../../domain/workflow';

/** The Tasks page's URL parameter for each part of a view (the page's own names: see tasks' use-task-filters.ts). */
const PARAMS = {
  projectId: 'project',
  status: 'status',
  category: 'category',
  priority: 'priority',
  assigneeId: 'assignee',
  due: 'due',
  start: 'start',
  subtasks: 'subtasks',
  q: 'q',
  sort: 'sort',
  dir: 'dir',
  view: 'view',
  groupBy: 'groupBy',
  cf: 'cf',
  hiddenColumns: 'columns',
} as const satisfies Record<keyof SavedViewConfig, string>;

/** The view the page was last set from: the Views menu marks it and offers to update, rename or delete it. */
export const SAVED_VIEW_PARAM = 'savedView';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A status key (any project's status, not only the default four). */
const statusKeyOf = (v: string | null) => (v && isStatusKeyShaped(v) ? v : undefined);
const fieldSortOf = (v: string | null): `field:${string}` | undefined =>
  v && /^field:[0-9a-f-]{36}$/i.test(v) ? (v as `field:${string}`) : undefined;
/** A list kept only when it has something (an empty one is no setting). */
const nonEmpty = <T>(list: T[]): T[] | undefined => (list.length > 0 ? list : undefined);
const oneOf = <T extends string>(values: readonly T[], v: string | null): T | undefined =>
  v !== null && (values as readonly string[]).includes(v) ? (v as T) : undefined;

/** The filters, search, sort and layout the URL holds, as a view stores them (anything malformed is left out). */
export function configFromParams(params: URLSearchParams): SavedViewConfig {
  const get = (key: keyof SavedViewConfig) => params.get(PARAMS[key]);
  const projectId = get('projectId');
  const assigneeId = get('assigneeId');
  const q = get('q')?.trim().slice(0, 200);
  const config: SavedViewConfig = {
    projectId: projectId && UUID.test(projectId) ? projectId : undefined,
    status: statusKeyOf(get('status')),
    category: oneOf(STATUS_CATEGORIES, get('category')),
    priority: oneOf(TASK_PRIORITIES, get('priority')),
    assigneeId: assigneeId === 'unassigned' || (assigneeId && UUID.test(assigneeId)) ? assigneeId : undefined,
    due: oneOf(DUE_FILTERS, get('due')),
    start: oneOf(START_FILTERS, get('start')),
    subtasks: oneOf(SUBTASK_FILTERS, get('subtasks')),
    q: q || undefined,
    // Only filters that parse (the server refuses a view with a malformed one).
    cf: nonEmpty(
      params
        .getAll(PARAMS.cf)
        .filter((f) => f.length <= 1000 && parseFieldFilter(f) !== null)
        .slice(0, CUSTOM_FIELD_LIMITS.filtersMax),
    ),
    sort: oneOf(TASK_SORTS, get('sort')) ?? fieldSortOf(get('sort')),
    hiddenColumns: nonEmpty(
      (get('hiddenColumns') ?? '')
        .split(',')
        .filter((c) => c && c.length <= 60)
        .slice(0, 80),
    ),
    dir: oneOf(['asc', 'desc'] as const, get('dir')),
    // The board is the page's default, and has no parameter.
    view: get('view') === 'list' ? 'list' : 'board',
    groupBy: oneOf(['assignee', 'priority', 'project'] as const, get('groupBy')),
  };
  return Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined)) as SavedViewConfig;
}

/** Every parameter a view sets, and null for each it clears (so that nothing of the previous filters stays). */
export function paramsFromConfig(config: SavedViewConfig, viewId: string): Record<string, string | string[] | null> {
  const out: Record<string, string | string[] | null> = { [SAVED_VIEW_PARAM]: viewId };
  for (const [key, param] of Object.entries(PARAMS) as [keyof SavedViewConfig, string][]) {
    const value = config[key];
    if (key === 'hiddenColumns') out[param] = Array.isArray(value) && value.length > 0 ? value.join(',') : null;
    else out[param] = value === undefined || (key === 'view' && value === 'board') ? null : value;
  }
  return out;
}

/** The view's query string on /tasks. */
export function viewSearch(config: SavedViewConfig, viewId: string): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(paramsFromConfig(config, viewId))) {
    if (Array.isArray(v)) for (const item of v) params.append(k, item);
    else if (v) params.set(k, v);
  }
  return params.toString();
}

/** Two configs that set the page the same way. */
export function sameConfig(a: SavedViewConfig, b: SavedViewConfig): boolean {
  const norm = (c: SavedViewConfig) => viewSearch({ view: 'board', ...c }, '');
  return norm(a) === norm(b);
}
