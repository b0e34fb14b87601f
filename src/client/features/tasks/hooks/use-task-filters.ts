import { useCallback, useMemo } from 'react';
import {
  DUE_FILTERS,
  type DueFilter,
  START_FILTERS,
  type StartFilter,
  SUBTASK_FILTERS,
  type SubtaskFilter,
  TASK_PRIORITIES,
  TASK_SORTS,
  type TaskPriority,
  type TaskSort,
} from '../../../../domain/constants';
import { CUSTOM_FIELD_LIMITS, FIELD_SORT_PREFIX } from '../../../../domain/custom-fields';
import { isStatusKeyShaped, STATUS_CATEGORIES, type StatusCategory } from '../../../../domain/workflow';
import { localDate } from '../../../../domain/task-filters';
import { useUrlParams } from '../../../lib/use-url-params';
import { UUID } from '../api/prefetch-board';
import { type GroupBy, isGroupBy } from '../board/board-model';
import type { TaskListSort, TaskQueryFilters } from '../api/task-keys';

export type TaskView = 'board' | 'list';

/** Filters live in the URL query so they survive a reload and can be shared. */
export interface TaskUrlState {
  project: string;
  q: string;
  /** A status key (of the project in scope, or one of the default four on All Projects). */
  status: string;
  /** A status category (All Projects whose workflows differ). */
  category: StatusCategory | '';
  priority: TaskPriority | '';
  assignee: string;
  due: DueFilter | '';
  /** The start-date filter: 'none' (not set) or 'set'. */
  start: StartFilter | '';
  /** 'hide': only top-level tasks (the board's 'Show sub-tasks' off); '' shows sub-tasks (the default). */
  subtasks: SubtaskFilter | '';
  view: TaskView;
  /** The board's swimlanes ('' for none). */
  groupBy: GroupBy | '';
  /** A built-in sort, or `field:<fieldId>` (a custom field's column). */
  sort: TaskSort | `field:${string}`;
  dir: 'asc' | 'desc';
  /** The custom field filters (`cf`, repeated), each `<fieldId>:<op>:<value>` as the URL holds it. */
  cf: string[];
  /** The list's hidden columns (`columns`, comma-joined): built-in column keys and `field:<fieldId>`. */
  columns: string[];
}

/** The URL's array-valued keys (`cf`); the rest are single values. */
export type TaskUrlChanges = Partial<Record<Exclude<keyof TaskUrlState, 'cf'>, string | null>> & { cf?: string[] | null };

/** The keys 'Clear All' resets. */
export const FILTER_KEYS = ['project', 'q', 'status', 'category', 'priority', 'assignee', 'due', 'start', 'cf'] as const;

/** A status key as the URL may carry it. */
const statusKeyOf = (v: string | null) => (v && isStatusKeyShaped(v) ? v : '');

const oneOf = <T extends string>(values: readonly T[], v: string | null): T | '' =>
  v && (values as readonly string[]).includes(v) ? (v as T) : '';

const FIELD_SORT = /^field:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const sortOf = (v: string | null): TaskUrlState['sort'] =>
  v && FIELD_SORT.test(v)
    ? `${FIELD_SORT_PREFIX}${v.slice(FIELD_SORT_PREFIX.length).toLowerCase()}`
    : oneOf(TASK_SORTS, v) || 'created';

export function useTaskFilters() {
  const [params, update] = useUrlParams();

  const state: TaskUrlState = useMemo(() => {
    const assignee = params.get('assignee') ?? '';
    const project = params.get('project') ?? '';
    return {
      project: UUID.test(project) ? project : '',
      q: params.get('q') ?? '',
      status: statusKeyOf(params.get('status')),
      category: oneOf(STATUS_CATEGORIES, params.get('category')),
      priority: oneOf(TASK_PRIORITIES, params.get('priority')),
      assignee: assignee === 'unassigned' || UUID.test(assignee) ? assignee : '',
      due: oneOf(DUE_FILTERS, params.get('due')),
      start: oneOf(START_FILTERS, params.get('start')),
      subtasks: oneOf(SUBTASK_FILTERS, params.get('subtasks')),
      view: params.get('view') === 'list' ? 'list' : 'board',
      groupBy: isGroupBy(params.get('groupBy')) ? (params.get('groupBy') as GroupBy) : '',
      sort: sortOf(params.get('sort')),
      dir: params.get('dir') === 'asc' ? 'asc' : params.get('dir') === 'desc' ? 'desc' : params.get('sort') ? 'asc' : 'desc',
      cf: params.getAll('cf').slice(0, CUSTOM_FIELD_LIMITS.filtersMax),
      columns: (params.get('columns') ?? '').split(',').filter(Boolean),
    };
  }, [params]);

  const clearAll = useCallback(() => update(Object.fromEntries(FILTER_KEYS.map((k) => [k, null]))), [update]);

  const today = localDate(new Date());
  const query: TaskQueryFilters = useMemo(
    () => ({
      projectId: state.project || undefined,
      q: state.q.trim() || undefined,
      cf: state.cf.length > 0 ? state.cf : undefined,
      status: state.status || undefined,
      category: state.category || undefined,
      priority: state.priority || undefined,
      assigneeId: state.assignee || undefined,
      due: state.due || undefined,
      start: state.start || undefined,
      subtasks: state.subtasks || undefined,
      // The caller's own calendar date decides the due buckets; only sent when a bucket is chosen.
      today: state.due ? today : undefined,
    }),
    [state, today],
  );
  const sort: TaskListSort = useMemo(() => ({ sort: state.sort, dir: state.dir }), [state.sort, state.dir]);

  return { state, query, sort, update, clearAll };
}
