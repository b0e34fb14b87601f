import { lockFor } from '../../db/locks';
import {
  and,
  asc,
  count,
  desc,
  eq,
  exists,
  gte,
  inArray,
  isNotNull,
  isNull,
  lte,
  not,
  notInArray,
  type Placeholder,
  sql,
  type SQL,
} from 'drizzle-orm';
import { isDefaultStatusKey, SUBTASK_LIMITS, TASK_STATUSES, type TaskPriority, type TeamRole } from '../../../domain/constants';
import { STATUS_CATEGORIES, type StatusCategory, type WorkflowStatus } from '../../../domain/workflow';
import type { ListTasksQuery, TaskSort } from '../../../domain/schemas/task';
import type { RepeatDto } from '../../../domain/schemas/repeat';
import { dueRange } from '../../../domain/task-filters';
import { alias, QueryBuilder, unionAll } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import type { CustomFieldDef, CustomFieldType, CustomFieldValues, FieldFilter } from '../../../domain/custom-fields';
import { customFields, projects, projectStatusCounts, projectStatuses, taskFieldValues, tasks, users } from '../../db/schema';
import { type RowStatement, rowStatement } from '../../db/row-statements';
import { containsText } from '../../db/search';
import { counterStatus, countTotal } from '../../db/task-counters';
import { activeRole, isActiveMember, projectRole, seesProject } from '../../db/visibility';
import { teamHasActiveWebhook } from '../webhooks';
import { taskProject } from '../../db/task-access';

/** The project's lock on its sub-task hierarchy, to the end of the transaction (re-parenting takes it). */
export const lockHierarchy = (db: DbOrTx, projectId: string): Promise<void> => lockFor(db, 'hierarchy', projectId);

export type TaskRow = typeof tasks.$inferSelect;

const qb = new QueryBuilder();

/** The columns one board card needs, with its assignee and project name (one query, no N+1). */
export const listColumns = {
  id: tasks.id,
  title: tasks.title,
  description: tasks.description,
  status: tasks.status,
  statusCategory: tasks.statusCategory,
  priority: tasks.priority,
  assigneeId: tasks.assigneeId,
  assigneeName: users.fullName,
  projectId: tasks.projectId,
  projectName: projects.name,
  creatorId: tasks.creatorId,
  dueDate: tasks.dueDate,
  tags: tasks.tags,
  createdAt: tasks.createdAt,
  updatedAt: tasks.updatedAt,
  version: tasks.version,
  commentCount: tasks.commentCount,
  attachmentCount: tasks.attachmentCount,
  checklistTotal: tasks.checklistTotal,
  checklistDone: tasks.checklistDone,
  parentId: tasks.parentId,
  subtaskDone: tasks.subtaskDone,
  subtaskTotal: tasks.subtaskTotal,
  startDate: tasks.startDate,
  openBlockerCount: tasks.openBlockerCount,
  fields: tasks.fields,
  seriesId: tasks.seriesId,
  repeat: tasks.repeat,
  estimateMinutes: tasks.estimateMinutes,
  estimatePoints: tasks.estimatePoints,
  loggedMinutes: tasks.loggedMinutes,
  subtaskLoggedMinutes: tasks.subtaskLoggedMinutes,
};
export interface TaskListRow {
  id: string;
  title: string;
  description: string | null;
  status: string;
  statusCategory: StatusCategory;
  priority: TaskPriority;
  assigneeId: string | null;
  assigneeName: string | null;
  projectId: string;
  projectName: string;
  creatorId: string;
  dueDate: string | null;
  tags: string[];
  createdAt: Date;
  updatedAt: Date;
  version: number;
  commentCount: number;
  attachmentCount: number;
  checklistTotal: number;
  checklistDone: number;
  parentId: string | null;
  subtaskDone: number;
  subtaskTotal: number;
  startDate: string | null;
  openBlockerCount: number;
  fields: CustomFieldValues;
  seriesId: string | null;
  repeat: RepeatDto | null;
  estimateMinutes: number | null;
  estimatePoints: number | null;
  loggedMinutes: number;
  subtaskLoggedMinutes: number;
}

/** A task list's page size when the query names none. */
export const LIST_PAGE_DEFAULT = 100;

/**
 * Projects (and so their tasks) `userId` sees (decision 0031): those of teams where they are an active member, and for a
 * guest only the projects given to them. The same lookup of the caller's membership row as before for everyone; the
 * guest's project_guests probe runs only when the row's role is guest.
 */
const visibleTo = (userId: string | Placeholder) => seesProject(projects.teamId, projects.id, userId);

/** A custom field filter (`cf`) the service checked against its field (domain `checkFieldFilter`), with its type. */
export interface ResolvedFieldFilter {
  filter: FieldFilter;
  type: CustomFieldType;
}

/** The field of `sort=field:<id>`: its type, and for a select its options in order. */
export type FieldSortDef = Pick<CustomFieldDef, 'id' | 'type' | 'options'>;

export interface TaskFilters extends Omit<ListTasksQuery, 'today'> {
  today: string;
  /** `cf`, resolved by the service (the raw `cf` only tells `hasTaskFilters` that there are some). */
  fieldFilters?: readonly ResolvedFieldFilter[];
  /** `sort=field:<id>`, resolved by the service. */
  fieldSort?: FieldSortDef;
}

/** Not closed (domain workflow.ts `isClosed`): neither completed nor canceled, whatever the status is called. */
const isOpen = notInArray(tasks.statusCategory, ['completed', 'canceled']);

function filterConditions(userId: string, f: TaskFilters): SQL[] {
  const where: SQL[] = [visibleTo(userId)];
  if (f.projectId) where.push(eq(tasks.projectId, f.projectId));
  if (f.teamId) where.push(eq(projects.teamId, f.teamId));
  if (f.creatorId) where.push(eq(tasks.creatorId, f.creatorId));
  if (f.dueFrom) where.push(gte(tasks.dueDate, f.dueFrom));
  if (f.dueTo) where.push(lte(tasks.dueDate, f.dueTo));
  if (f.spanFrom) where.push(gte(tasks.dueDate, f.spanFrom));
  if (f.spanTo) where.push(isNotNull(tasks.dueDate), lte(sql`coalesce(${tasks.startDate}, ${tasks.dueDate})`, f.spanTo));
  if (f.open === 'true') where.push(isOpen);
  if (f.status) where.push(eq(tasks.status, f.status));
  if (f.category) where.push(eq(tasks.statusCategory, f.category));
  if (f.priority) where.push(eq(tasks.priority, f.priority));
  if (f.assigneeId === 'unassigned') where.push(isNull(tasks.assigneeId));
  else if (f.assigneeId) where.push(eq(tasks.assigneeId, f.assigneeId));
  const q = f.q?.trim();
  if (q) where.push(containsText(q, tasks.title, tasks.description));
  if (f.start === 'none') where.push(isNull(tasks.startDate));
  else if (f.start === 'set') where.push(isNotNull(tasks.startDate));
  if (f.startFrom) where.push(gte(tasks.startDate, f.startFrom));
  if (f.startTo) where.push(lte(tasks.startDate, f.startTo));
  // 'Show sub-tasks' off: top-level tasks only, in the cards and the counts alike.
  if (f.subtasks === 'hide') where.push(isNull(tasks.parentId));
  if (f.due) {
    const range = dueRange(f.due, f.today);
    if (range.from) where.push(gte(tasks.dueDate, range.from));
    if (range.to) where.push(lte(tasks.dueDate, range.to));
    if (!range.from && !range.to) where.push(sql`${tasks.dueDate} is not null`);
    if (range.excludeCompleted) where.push(isOpen);
  }
  for (const resolved of f.fieldFilters ?? []) where.push(fieldFilterCondition(resolved));
  return where;
}

// ---------------------------------------------------------------------------------------------------------------
// Custom fields (issue 38, decision 0026): filters and sorts read task_field_values (kept by triggers from
// tasks.fields), each condition an `exists` on the task's rows of one field, served by the table's indexes.

const fv = alias(taskFieldValues, 'v');

/**
 * The task (`tasks` in scope) has a value row of field `fieldId` (meeting `condition`, when given). `fieldId` null: the
 * condition alone names the field (an option id, unique across fields): the planner then estimates the rows from the
 * option's own statistics, where `field_id and v_option` together, read as independent, were 30 times too few
 * (100,000 tasks: a 170 ms plan sorting 11,000 matches instead of walking the newest tasks).
 */
const hasFieldValue = (fieldId: string | null, condition?: SQL) =>
  exists(
    qb
      .select({ one: sql`1` })
      .from(fv)
      .where(and(eq(fv.taskId, tasks.id), fieldId === null ? undefined : eq(fv.fieldId, fieldId), condition)),
  );

/** A PostgreSQL array literal of ids (checked uuids), sent as one parameter: `= any($1::uuid[])`. */
const uuidArray = (ids: readonly string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;
/** A checked number filter value, as numeric's input reads it (no hex or other forms JavaScript alone accepts). */
const numeric = (value: string) => sql`${String(Number(value))}::numeric`;
const day = (value: string) => sql`${value}::date`;

/** One `cf` filter as a condition on the task (decision 0026 "Filters"). */
function fieldFilterCondition({ filter, type }: ResolvedFieldFilter): SQL {
  const { fieldId, op, values } = filter;
  const [a = '', b = ''] = values;
  switch (type) {
    case 'text':
    case 'url':
      return hasFieldValue(fieldId, containsText(a, fv.vText));
    case 'number':
      if (op === 'between') return hasFieldValue(fieldId, sql`${fv.vNum} between ${numeric(a)} and ${numeric(b)}`);
      return hasFieldValue(fieldId, sql`${fv.vNum} ${sql.raw(op === 'lt' ? '<' : op === 'gt' ? '>' : '=')} ${numeric(a)}`);
    case 'date':
      if (op === 'between') return hasFieldValue(fieldId, sql`${fv.vDate} between ${day(a)} and ${day(b)}`);
      return hasFieldValue(fieldId, sql`${fv.vDate} ${sql.raw(op === 'before' ? '<' : '>')} ${day(a)}`);
    case 'select':
    case 'multi_select': {
      // The options were checked to be the field's (domain `checkFieldFilter`).
      const any = hasFieldValue(null, sql`${fv.vOption} = any(${uuidArray(values)})`);
      return op === 'none' ? not(any) : any;
    }
    case 'person':
      return hasFieldValue(fieldId, sql`${fv.vUser} = ${a.toLowerCase()}::uuid`);
    case 'checkbox':
      return a === 'true' ? hasFieldValue(fieldId, sql`${fv.vBool}`) : not(hasFieldValue(fieldId));
  }
}

/**
 * A custom field's sort key read from the task's own row (`tasks.fields`), for the types sorted without their index:
 * text and url case-insensitively, a select by its option's place, a multi-select by its first option's (values are
 * stored in option order), a person by name, a ticked checkbox first. Null: no value (sorted last).
 */
function fieldSortKey(field: FieldSortDef): SQL {
  const value = sql`(${tasks.fields} ->> ${field.id}::text)`;
  const optionIds = sql`${`{${field.options.map((o) => o.id).join(',')}}`}::text[]`;
  switch (field.type) {
    case 'select':
      return sql`array_position(${optionIds}, ${value})`;
    case 'multi_select':
      return sql`array_position(${optionIds}, ${tasks.fields} -> ${field.id}::text ->> 0)`;
    case 'person':
      return sql`(select lower(fu.full_name) from ${users} fu where fu.id = ${value}::uuid)`;
    case 'checkbox':
      return sql`case when ${value} = 'true' then 0 end`;
    default:
      return sql`lower(${value})`;
  }
}

/** By category in flow order, then by the status's place in its project's workflow (the default four: today's order). */
const statusRank = [
  sql`array_position(array[${sql.raw(STATUS_CATEGORIES.map((c) => `'${c}'`).join(', '))}]::text[], ${tasks.statusCategory})`,
  sql`(select ps.position from ${projectStatuses} ps where ps.project_id = ${tasks.projectId} and ps.key = ${tasks.status})`,
];
const priorityRank = sql`case ${tasks.priority} when 'low' then 0 when 'medium' then 1 when 'high' then 2 else 3 end`;

function orderBy(
  sort: TaskSort | `field:${string}` = 'created',
  dir: 'asc' | 'desc' = sort === 'created' ? 'desc' : 'asc',
): SQL[] {
  const by = dir === 'asc' ? asc : desc;
  const nullsLast = (e: SQL | typeof tasks.dueDate | typeof tasks.startDate) => sql`${e} ${sql.raw(dir)} nulls last`;
  const key: Record<TaskSort, SQL> = {
    created: by(tasks.createdAt),
    title: by(sql`lower(${tasks.title})`),
    status: sql.join(
      statusRank.map((rank) => by(rank)),
      sql`, `,
    ),
    priority: by(priorityRank),
    assignee: nullsLast(sql`lower(${users.fullName})`),
    due: nullsLast(tasks.dueDate),
    start: nullsLast(tasks.startDate),
    project: by(sql`lower(${projects.name})`),
  };
  // Ties fall back to newest first, then id, so paging is stable. (`field:<id>` is listByField's, never read here.)
  return [sort.startsWith('field:') ? key.created : key[sort as TaskSort], desc(tasks.createdAt), desc(tasks.id)];
}

/** Cards with their project's and assignee's names: the one join every list of cards starts from. */
const selectCards = (db: DbOrTx) =>
  db.select(listColumns).from(tasks).innerJoin(projects, taskProject).leftJoin(users, eq(users.id, tasks.assigneeId));

type ColumnSelect = ReturnType<typeof selectCards>;

/** One statement from the columns' selects (each keeps its own order and limit). */
const unionColumns = <T extends Pick<ColumnSelect, 'getSQL'>>(columns: T[]) =>
  unionAll(...(columns as unknown as [ColumnSelect, ColumnSelect, ...ColumnSelect[]]));

export async function listVisible(db: DbOrTx, userId: string, f: TaskFilters): Promise<TaskListRow[]> {
  if (f.fieldSort) return listByField(db, userId, f, f.fieldSort);
  return selectCards(db)
    .where(and(...filterConditions(userId, f)))
    .orderBy(...orderBy(f.sort, f.dir))
    .limit(f.limit ?? LIST_PAGE_DEFAULT)
    .offset(f.offset ?? 0);
}

/**
 * A page of the list sorted by a custom field (decision 0026 "Sort"): the tasks with a value first, in the field's
 * order (`dir`), then those without one, newest first; ties newest first, then id.
 * - Numbers and dates: the valued tasks joined from task_field_values on the field, ordered by the value, so the
 *   planner can walk the (field_id, v_num | v_date) index and stop at the page; when the page goes past them, a second
 *   read of the tasks without a value (`not exists`), its offset moved back by how many had one (counted only when the
 *   page starts past them all).
 * - The other types: one read, ordered by a key from the task's own row (`fieldSortKey`), no value last.
 */
async function listByField(db: DbOrTx, userId: string, f: TaskFilters, field: FieldSortDef): Promise<TaskListRow[]> {
  const where = filterConditions(userId, f);
  const limit = f.limit ?? LIST_PAGE_DEFAULT;
  const offset = f.offset ?? 0;
  const dir = f.dir ?? 'asc';
  const by = dir === 'asc' ? asc : desc;
  const ties = [desc(tasks.createdAt), desc(tasks.id)];
  if (field.type !== 'number' && field.type !== 'date') {
    return selectCards(db)
      .where(and(...where))
      .orderBy(sql`${fieldSortKey(field)} ${sql.raw(dir)} nulls last`, ...ties)
      .limit(limit)
      .offset(offset);
  }
  const value = field.type === 'number' ? fv.vNum : fv.vDate;
  const valueRow = and(eq(fv.taskId, tasks.id), eq(fv.fieldId, field.id), isNotNull(value));
  const valued = await db
    .select(listColumns)
    .from(fv)
    .innerJoin(tasks, valueRow)
    .innerJoin(projects, taskProject)
    .leftJoin(users, eq(users.id, tasks.assigneeId))
    .where(and(...where))
    .orderBy(by(value), ...ties)
    .limit(limit)
    .offset(offset);
  if (valued.length === limit) return valued;
  // Where the tasks without a value start: right after these, or (a page past every valued task) after all of them.
  let restOffset = 0;
  if (valued.length === 0 && offset > 0) {
    const [counted] = await db
      .select({ n: count() })
      .from(fv)
      .innerJoin(tasks, valueRow)
      .innerJoin(projects, taskProject)
      .where(and(...where));
    restOffset = Math.max(0, offset - Number(counted?.n ?? 0));
  }
  const rest = await selectCards(db)
    .where(and(...where, not(hasFieldValue(field.id))))
    .orderBy(...ties)
    .limit(limit - valued.length)
    .offset(restOffset);
  return [...valued, ...rest];
}

/**
 * The first `limit` tasks of each board column, newest first, in one statement (one limited, indexed select per
 * column, joined by UNION ALL), with the task filters: the board's read when filters narrow it (without them it is one
 * of `cardStatements`). Each column is a status key or a category (`BoardColumnFilter`); a column's filter is added to
 * the query's own, so a column the filters exclude reads nothing.
 */
export async function listBoard(
  db: DbOrTx,
  userId: string,
  f: TaskFilters,
  columns: readonly BoardColumnFilter[],
  limit: number,
): Promise<TaskListRow[]> {
  const where = filterConditions(userId, f);
  const selects = columns.map((column) =>
    selectCards(db)
      .where(and(...where, columnCondition(column)))
      .orderBy(...orderBy('created', 'desc'))
      .limit(limit),
  );
  return selects.length > 1 ? unionColumns(selects) : (selects[0] ?? []);
}

/** One board column's tasks: those of a status key, or of a category (All Projects when workflows differ). */
export type BoardColumnFilter = { status: string } | { category: StatusCategory };

const columnCondition = (column: BoardColumnFilter) =>
  'status' in column ? eq(tasks.status, column.status) : eq(tasks.statusCategory, column.category);

/**
 * Exact task counts per board column for the filters, counted from the tasks (the board's counts without filters
 * come from the counters: `boardStatements.statuses`), by status key or by category.
 */
export async function countBoardColumns(
  db: DbOrTx,
  userId: string,
  f: TaskFilters,
  by: 'status' | 'category',
): Promise<{ column: string; n: number }[]> {
  const column = by === 'status' ? tasks.status : tasks.statusCategory;
  return db
    .select({ column, n: count() })
    .from(tasks)
    .innerJoin(projects, taskProject)
    .where(and(...filterConditions(userId, f)))
    .groupBy(column);
}

/** Filters that narrow the tasks within a project (the board's counts then need counting). */
export const hasTaskFilters = (f: Omit<TaskFilters, 'today'>) =>
  Boolean(
    f.priority ||
      f.assigneeId ||
      f.q?.trim() ||
      f.due ||
      f.teamId ||
      f.creatorId ||
      f.dueFrom ||
      f.dueTo ||
      f.spanFrom ||
      f.spanTo ||
      f.open === 'true' ||
      f.category ||
      f.start ||
      f.startFrom ||
      f.startTo ||
      // The counters and the card statements count sub-tasks: hiding them counts from the tasks.
      f.subtasks ||
      // Custom field filters (issue 38) are counted from the tasks.
      (f.cf?.length ?? 0) > 0 ||
      // The counters' statements read the default four; any other key is counted from its tasks.
      (f.status && !isDefaultStatusKey(f.status)),
  );

const selectCardRows = () =>
  qb.select(listColumns).from(tasks).innerJoin(projects, taskProject).leftJoin(users, eq(users.id, tasks.assigneeId));

/** The card statements' conditions: visible to `userId`, and (by placeholder) of one project and/or status. */
const cardWhere = (withProject: boolean, status: Placeholder | string | null) =>
  and(
    visibleTo(sql.placeholder('userId')),
    status === null ? undefined : eq(tasks.status, status),
    withProject ? eq(tasks.projectId, sql.placeholder('projectId')) : undefined,
  );

const newestFirst = orderBy('created', 'desc');

/**
 * The reads every screen of cards starts with, as row statements (db/row-statements.ts): the All Projects board on
 * the default four (each status's newest `limit`; one project's board and the other workflows are `boardStatements`)
 * and a page of the list in its default order (newest first), of all visible projects or of one, of every status or
 * of one. Rows in `listColumns` order, mapped by `taskDtoFromRow`.
 */
export const cardStatements = (() => {
  const boardAll = rowStatement(
    'cards_board_all',
    unionAll(
      ...(TASK_STATUSES.map((status) =>
        selectCardRows()
          .where(cardWhere(false, status))
          .orderBy(...newestFirst)
          .limit(sql.placeholder('limit')),
      ) as unknown as [ColumnSelect, ColumnSelect]),
    ),
    // Planned for its caller (2026-11-29): the generic plan estimates one team a person (team_members rows over distinct
    // people), so with many people it reads every visible task of a status and sorts them (20.3 ms of SQL at 10,000
    // tasks once the bench had a team of 50 more people, against 4.4 ms planned for the caller's teams).
    { plans: 'per-values' },
  );
  const page = (withProject: boolean, withStatus: boolean) =>
    rowStatement(
      `cards_page${withProject ? '_project' : ''}${withStatus ? '_status' : ''}`,
      selectCardRows()
        .where(cardWhere(withProject, withStatus ? sql.placeholder('status') : null))
        .orderBy(...newestFirst)
        .limit(sql.placeholder('limit'))
        .offset(sql.placeholder('offset')),
      // One status of every visible project (a column's 'Show more' on All Projects): the generic plan, blind to the
      // status, gathers and sorts all of that status's tasks (10.3 ms at 100,000 tasks, against 1.3 ms planned for
      // the values); the other shapes read the same either way.
      { plans: withStatus && !withProject ? 'per-values' : 'generic' },
    );
  return {
    /** Every visible project on the default four (decision 0024: today's board, unchanged). */
    board: { all: boardAll },
    /** A page of every visible project or of one (`project`), of every status or of one (`status`). */
    page: {
      all: { all: page(false, false), status: page(false, true) },
      project: { all: page(true, false), status: page(true, true) },
    },
  };
})();

/**
 * The board's reads beyond `cardStatements.board` (decision 0024), as row statements:
 * - `statuses`: the live statuses of the visible projects (of one, by placeholder), in each project's order, each with
 *   its tasks from the counters (migration 0011: sum(n) of the key's slots, grouped by status): the answer's `workflows`, its counts
 *   without filters, and (one project) the visibility check: no row, no visible project (a project has statuses).
 *   Columns: project id, then `statusDto`'s fields in its order, then the count.
 * - `project`: one project's board, one column per live status in one statement — `project_statuses s cross join
 *   lateral (the newest :limit cards of s.key)`, each column read on the (project_id, status, created_at) index,
 *   whatever the number of statuses. Rows in `listColumns` order, by position then newest first.
 * - `categories(used)`: All Projects when the visible workflows differ: one limited select per category in use, on
 *   tasks.status_category, joined by UNION ALL (one statement per set of categories, made when first asked for). The
 *   category is a literal, so the plan is the category's: with an index on (status_category, created_at, id) a column
 *   stops at `limit` rows; without one, it walks tasks_created_idx newest first, filtering (correct either way, slower
 *   for a rare category).
 */
export const boardStatements = (() => {
  const statuses = (withProject: boolean) =>
    rowStatement(
      withProject ? 'board_statuses_project' : 'board_statuses_all',
      qb
        .select({
          projectId: projectStatuses.projectId,
          id: projectStatuses.id,
          key: projectStatuses.key,
          name: projectStatuses.name,
          category: projectStatuses.category,
          color: projectStatuses.color,
          position: projectStatuses.position,
          wipLimit: projectStatuses.wipLimit,
          n: countTotal,
        })
        .from(projects)
        .innerJoin(projectStatuses, and(eq(projectStatuses.projectId, projects.id), isNull(projectStatuses.deletedAt)))
        // Joined and summed, not a subquery a status: one pass over the visible projects' counter rows (0.45 against
        // 1.2 ms for 160 statuses, PostgreSQL, 10,000 tasks).
        .leftJoin(projectStatusCounts, counterStatus)
        .where(and(visibleTo(sql.placeholder('userId')), withProject ? eq(projects.id, sql.placeholder('projectId')) : undefined))
        .groupBy(projectStatuses.id)
        .orderBy(asc(projectStatuses.projectId), asc(projectStatuses.position)),
    );

  const { projectName, ...taskColumns } = listColumns;
  const newest = qb
    .select(taskColumns)
    .from(tasks)
    .leftJoin(users, eq(users.id, tasks.assigneeId))
    .where(and(eq(tasks.projectId, projectStatuses.projectId), eq(tasks.status, projectStatuses.key)))
    .orderBy(...newestFirst)
    .limit(sql.placeholder('limit'))
    .as('card');
  const cardColumns = Object.fromEntries(
    Object.keys(listColumns).map((key) => [key, key === 'projectName' ? projectName : newest[key as keyof typeof taskColumns]]),
  ) as unknown as typeof listColumns;
  const project = rowStatement(
    'cards_board_statuses',
    qb
      .select(cardColumns)
      .from(projects)
      .innerJoin(projectStatuses, and(eq(projectStatuses.projectId, projects.id), isNull(projectStatuses.deletedAt)))
      .crossJoinLateral(newest)
      .where(and(eq(projects.id, sql.placeholder('projectId')), visibleTo(sql.placeholder('userId'))))
      .orderBy(asc(projectStatuses.position), desc(newest.createdAt), desc(newest.id)),
  );

  const byCategories = new Map<string, RowStatement>();
  const categories = (used: readonly StatusCategory[]) => {
    const name = `cards_board_${used.join('_')}`;
    let statement = byCategories.get(name);
    if (!statement) {
      const selects = used.map((category) =>
        selectCardRows()
          .where(and(visibleTo(sql.placeholder('userId')), eq(tasks.statusCategory, sql.raw(`'${category}'`))))
          .orderBy(...newestFirst)
          .limit(sql.placeholder('limit')),
      );
      statement = rowStatement(name, selects.length > 1 ? unionColumns(selects) : selects[0]!);
      byCategories.set(name, statement);
    }
    return statement;
  };
  return { statuses: { all: statuses(false), project: statuses(true) }, project, categories };
})();

/** A row of `boardStatements.statuses`: a live status of a visible project, with its tasks by the counters. */
export function boardStatusFromRow(row: unknown[]): { projectId: string; status: WorkflowStatus; n: number } {
  return {
    projectId: row[0] as string,
    status: {
      id: row[1] as string,
      key: row[2] as string,
      name: row[3] as string,
      category: row[4] as StatusCategory,
      color: row[5] as string,
      position: row[6] as number,
      wipLimit: row[7] as number | null,
    },
    n: row[8] as number,
  };
}

/** The list's query in the one order `cardStatements.page` reads: newest first. */
export const isDefaultOrder = (f: Pick<TaskFilters, 'sort' | 'dir'>) =>
  (f.sort ?? 'created') === 'created' && (f.dir ?? 'desc') === 'desc';

/**
 * Counts per status key for the card statements, from the counters (migrations 0004, 0011: the slots of each key
 * summed, as `boardStatements.statuses` does): of one project, with whether `userId` may see it (no row: no such
 * project; a project without counter rows gives one row whose key is null), or of every visible project. One
 * statement each, so a page of one project costs two: its cards, and this.
 */
/* Columns: `visible`, the status key, its tasks; one row per key. */
export const countStatements = {
  project: rowStatement(
    'card_counts_project',
    qb
      .select({
        visible: sql<boolean>`${visibleTo(sql.placeholder('userId'))}`,
        status: projectStatusCounts.status,
        n: countTotal,
      })
      .from(projects)
      .leftJoin(projectStatusCounts, eq(projectStatusCounts.projectId, projects.id))
      .where(eq(projects.id, sql.placeholder('projectId')))
      .groupBy(projects.id, projectStatusCounts.status),
  ),
  all: rowStatement(
    'card_counts_all',
    qb
      .select({ visible: sql<boolean>`true`, status: projectStatusCounts.status, n: countTotal })
      .from(projectStatusCounts)
      .innerJoin(projects, eq(projects.id, projectStatusCounts.projectId))
      .where(visibleTo(sql.placeholder('userId')))
      .groupBy(projectStatusCounts.status),
  ),
};

/**
 * Exact task counts per status for the filters. Filtered only by project (or not at all), they are
 * the sum of the visible projects' counters (kept by a trigger, migrations 0004 and 0011): the cost follows the
 * number of projects, not of tasks. Any other filter counts the matching tasks.
 */
export async function countVisibleByStatus(db: DbOrTx, userId: string, f: TaskFilters): Promise<{ status: string; n: number }[]> {
  if (hasTaskFilters(f)) {
    const rows = await db
      .select({ status: tasks.status, n: count() })
      .from(tasks)
      .innerJoin(projects, taskProject)
      .where(and(...filterConditions(userId, f)))
      .groupBy(tasks.status);
    return rows;
  }
  const where: SQL[] = [visibleTo(userId)];
  if (f.projectId) where.push(eq(projects.id, f.projectId));
  if (f.status) where.push(eq(projectStatusCounts.status, f.status));
  return db
    .select({ status: projectStatusCounts.status, n: sql<number>`sum(${projectStatusCounts.n})::int` })
    .from(projectStatusCounts)
    .innerJoin(projects, eq(projects.id, projectStatusCounts.projectId))
    .where(and(...where))
    .groupBy(projectStatusCounts.status);
}

/** One task with what its DTO needs, regardless of the caller (the service authorizes). */
export async function getOneById(db: DbOrTx, id: string) {
  const [row] = await db
    .select({ ...listColumns, teamId: projects.teamId })
    .from(tasks)
    .innerJoin(projects, taskProject)
    .leftJoin(users, eq(users.id, tasks.assigneeId))
    .where(eq(tasks.id, id));
  return row;
}

/**
 * The active role of `userId` in the team of the `projects` row in scope, null when not a member or when a guest the
 * project was not given to (decision 0031: as a stranger).
 */
const roleIn = (userId: string) => projectRole(projects.teamId, projects.id, userId);

/**
 * Locks the task row for the rest of the transaction, and reads in the same statement its team,
 * the caller's role there, and the project and assignee names its answer shows.
 */
export async function lockOneById(db: DbOrTx, id: string, userId: string) {
  const [row] = await db
    .select({
      task: tasks,
      teamId: projects.teamId,
      callerRole: roleIn(userId),
      projectName: projects.name,
      assigneeName: users.fullName,
    })
    .from(tasks)
    .innerJoin(projects, taskProject)
    .leftJoin(users, eq(users.id, tasks.assigneeId))
    .where(eq(tasks.id, id))
    .for('update', { of: tasks });
  return row;
}

/**
 * What writing a task into a project needs to know, in one statement: the project's team and name,
 * the caller's role there, and (when given) the assignee's role there and name. With `statusKey`, the same statement
 * holds the project's live status of that key `for share` as workflows `shareLiveStatus` does (`statusHeld`: false
 * when there is none): a creation without a parent takes no lock before it, so it saves a round trip (issue 42).
 */
export async function getProjectAccess(
  db: DbOrTx,
  projectId: string,
  userId: string,
  assigneeId: string | null,
  statusKey?: string,
) {
  const [row] = await db
    .select({
      teamId: projects.teamId,
      projectName: projects.name,
      callerRole: roleIn(userId),
      assigneeRole: assigneeId ? activeRole(projects.teamId, assigneeId) : sql<TeamRole | null>`null`,
      assigneeName: assigneeId
        ? sql<string | null>`(select u.full_name from users u where u.id = ${assigneeId})`
        : sql<string | null>`null`,
      // Whether a webhook may want the change: without one, creation skips the transaction (tasks.service create).
      hasWebhooks: teamHasActiveWebhook(projects.teamId),
      statusHeld:
        statusKey === undefined
          ? sql<boolean>`false`
          : sql<boolean>`(select s.id from project_statuses s where s.project_id = ${projectId} and s.key = ${statusKey} and s.deleted_at is null for share) is not null`,
    })
    .from(projects)
    .where(eq(projects.id, projectId));
  return row;
}

/** A custom field as the tasks module checks values and filters against it. */
export type FieldDef = Omit<CustomFieldDef, 'showOnCard' | 'position'>;

const fieldDefColumns = {
  id: customFields.id,
  teamId: customFields.teamId,
  name: customFields.name,
  type: customFields.type,
  options: customFields.options,
  projectIds: customFields.projectIds,
  archived: customFields.archived,
  unit: customFields.unit,
  decimals: customFields.decimals,
};

/** Of these fields, those of the teams `userId` is an active member of (what a filter or a sort may name). */
export async function visibleFields(db: DbOrTx, userId: string, ids: readonly string[]): Promise<FieldDef[]> {
  if (ids.length === 0) return [];
  return db
    .select(fieldDefColumns)
    .from(customFields)
    .where(and(inArray(customFields.id, [...ids]), isActiveMember(customFields.teamId, userId)));
}

export type NewTask = typeof tasks.$inferInsert;

export async function createOne(db: DbOrTx, values: NewTask): Promise<TaskRow> {
  const [row] = await db.insert(tasks).values(values).returning();
  return row!;
}

/** What an edit may write of a task (the counters are the triggers'). */
export type TaskChanges = Partial<
  Omit<NewTask, 'id' | 'creatorId' | 'createdAt' | 'version' | 'subtaskDone' | 'subtaskTotal' | 'openBlockerCount'>
>;

/** Updates and bumps the version; with `expectedVersion`, only if it still matches (else undefined). */
export async function updateOne(
  db: DbOrTx,
  id: string,
  values: TaskChanges,
  expectedVersion?: number,
): Promise<TaskRow | undefined> {
  const where = expectedVersion === undefined ? eq(tasks.id, id) : and(eq(tasks.id, id), eq(tasks.version, expectedVersion));
  const [row] = await db
    .update(tasks)
    .set({ ...values, version: sql`${tasks.version} + 1`, updatedAt: sql`now()` })
    .where(where)
    .returning();
  return row;
}

export async function deleteOne(db: DbOrTx, id: string): Promise<void> {
  await db.delete(tasks).where(eq(tasks.id, id));
}

// ---------------------------------------------------------------------------------------------------------------
// Sub-tasks (issue 37, decision 0025)

/** Levels a walk up or down the tree reads at most: one more than the deepest chain allowed tells "too deep". */
const TREE_WALK_MAX = SUBTASK_LIMITS.maxDepth + 1;

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * The parent of a task being written, locked `for no key update` (the lock the sub-task counts take on it anyway:
 * siblings added at once queue here, so each reads the last position), with its team and the caller's role there.
 */
export async function lockParent(db: DbOrTx, id: string, userId: string) {
  const [row] = await db
    .select({ id: tasks.id, projectId: tasks.projectId, teamId: projects.teamId, callerRole: roleIn(userId) })
    .from(tasks)
    .innerJoin(projects, taskProject)
    .where(eq(tasks.id, id))
    .for('no key update', { of: tasks });
  return row;
}

/** The ancestors of task `id`, from its own parent up to the top task, in one recursive statement (capped). */
export async function ancestorIds(db: DbOrTx, id: string): Promise<string[]> {
  const result = await db.execute(sql`
    with recursive up(id, parent_id, depth) as (
      select t.id, t.parent_id, 0 from ${tasks} t where t.id = ${id}
      union all
      select p.id, p.parent_id, up.depth + 1 from up join ${tasks} p on p.id = up.parent_id
      where up.depth < ${TREE_WALK_MAX}
    )
    select id from up where depth > 0 order by depth`);
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

/** The descendants of task `id` with their depth below it (1: its sub-tasks), in one recursive statement (capped). */
async function descendants(db: DbOrTx, id: string): Promise<{ id: string; depth: number }[]> {
  const result = await db.execute(sql`
    with recursive down(id, depth) as (
      select c.id, 1 from ${tasks} c where c.parent_id = ${id}
      union all
      select c.id, down.depth + 1 from down join ${tasks} c on c.parent_id = down.id
      where down.depth < ${TREE_WALK_MAX}
    )
    select id, depth from down`);
  return rowsOf<{ id: string; depth: number }>(result).map((r) => ({ id: r.id, depth: Number(r.depth) }));
}

/** Tasks in the longest chain from task `id` down, counting itself (1: no sub-tasks), capped past the limit. */
export async function subtreeHeight(db: DbOrTx, id: string): Promise<number> {
  return 1 + Math.max(0, ...(await descendants(db, id)).map((d) => d.depth));
}

/** The place after the parent's last sub-task. */
export async function nextSubtaskPosition(db: DbOrTx, parentId: string): Promise<number> {
  const [row] = await db
    .select({ next: sql<number>`coalesce(max(${tasks.subtaskPosition}) + 1, 0)::int` })
    .from(tasks)
    .where(eq(tasks.parentId, parentId));
  return Number(row?.next ?? 0);
}

/** A parent's sub-tasks as cards, in their order. */
export async function listSubtasks(db: DbOrTx, parentId: string): Promise<TaskListRow[]> {
  return selectCards(db)
    .where(eq(tasks.parentId, parentId))
    .orderBy(asc(tasks.subtaskPosition), asc(tasks.createdAt), asc(tasks.id));
}

/** A parent's sub-task ids (any order). */
export async function listSubtaskIds(db: DbOrTx, parentId: string): Promise<string[]> {
  const rows = await db.select({ id: tasks.id }).from(tasks).where(eq(tasks.parentId, parentId));
  return rows.map((r) => r.id);
}

/** Gives each sub-task its place in `ids` (already checked to be exactly the parent's sub-tasks), in one statement. */
export async function reorderSubtasks(db: DbOrTx, parentId: string, ids: readonly string[]): Promise<void> {
  const values = sql.join(
    ids.map((id, i) => sql`(${id}::uuid, ${i}::int)`),
    sql`, `,
  );
  await db.execute(sql`
    update ${tasks} t set subtask_position = v.position
    from (values ${values}) as v(id, position)
    where t.id = v.id and t.parent_id = ${parentId}`);
}

/** A sub-task read with its subtree's top task: its card row, and its depth below the top (1: a sub-task of it). */
export type SubtreeRow = TaskListRow & { depth: number };

/**
 * The task's sub-tasks at every level, top-down, each with what its DTO needs, locked `for update` after the task
 * itself (which the caller has locked): one statement a level, each level's rows locked in id order, each level read
 * under the locks of the one above, so a sub-task added or re-parented into the subtree meanwhile (its trigger locks
 * its parent) waits for this transaction and none is missed. The rows of a deletion's `task.deleted` records (read
 * before the cascade removes them), of a move to another project and of completing the open ones. Empty for a task
 * without sub-tasks.
 */
export async function lockSubtree(db: DbOrTx, id: string): Promise<SubtreeRow[]> {
  const subtree: SubtreeRow[] = [];
  let parents = [id];
  for (let depth = 1; parents.length > 0 && depth < TREE_WALK_MAX; depth++) {
    const level = await selectCards(db)
      .where(inArray(tasks.parentId, parents))
      .orderBy(asc(tasks.id))
      .for('update', { of: tasks });
    subtree.push(...level.map((row) => ({ ...row, depth })));
    parents = level.map((row) => row.id);
  }
  return subtree;
}

/**
 * Writes one level of a subtree (rows of one depth below its top task) into `projectId` with each row's own status,
 * bumping their versions, in one statement. Top-down, a level at a time: the status trigger (migrations 0011, 0013)
 * checks that a moved sub-task's parent is in its new project, so a parent is written before its sub-tasks.
 */
export async function writeSubtreeLevel(
  db: DbOrTx,
  projectId: string,
  rows: readonly { id: string; status: string }[],
  { clearFields = false }: { clearFields?: boolean } = {},
): Promise<void> {
  if (rows.length === 0) return;
  const values = sql.join(
    rows.map((r) => sql`(${r.id}::uuid, ${r.status}::text)`),
    sql`, `,
  );
  // Into another team, the custom field values go (they are the old team's fields: decision 0026).
  const fields = clearFields ? sql`, fields = '{}'::jsonb` : sql``;
  await db.execute(sql`
    update ${tasks} t set project_id = ${projectId}::uuid, status = v.status, version = t.version + 1, updated_at = now()${fields}
    from (values ${values}) as v(id, status)
    where t.id = v.id`);
}

/** Tasks as cards, by id (in no particular order). */
export async function listCardsByIds(db: DbOrTx, ids: readonly string[]): Promise<TaskListRow[]> {
  if (ids.length === 0) return [];
  return selectCards(db).where(inArray(tasks.id, [...ids]));
}
