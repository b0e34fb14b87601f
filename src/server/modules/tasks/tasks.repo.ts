import { and, asc, count, desc, eq, gte, isNull, lte, notInArray, type Placeholder, sql, type SQL } from 'drizzle-orm';
import { TASK_STATUSES, type TaskPriority, type TeamRole } from '../../../domain/constants';
import { STATUS_CATEGORIES, type StatusCategory } from '../../../domain/workflow';
import type { ListTasksQuery, TaskSort } from '../../../domain/schemas/task';
import { dueRange } from '../../../domain/task-filters';
import { QueryBuilder, unionAll } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { projects, projectStatusCounts, projectStatuses, tasks, users } from '../../db/schema';
import { rowStatement } from '../../db/row-statements';
import { containsText } from '../../db/search';
import { countSums, countTotal } from '../../db/task-counters';
import { activeRole, isActiveMember } from '../../db/visibility';
import { teamHasActiveWebhook } from '../webhooks';
import { taskProject } from '../../db/task-access';

export type TaskRow = typeof tasks.$inferSelect;

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
}

/** A task list's page size when the query names none. */
export const LIST_PAGE_DEFAULT = 100;

/** Projects (and so their tasks) in teams where `userId` is an active member. */
const visibleTo = (userId: string | Placeholder) => isActiveMember(projects.teamId, userId);

export interface TaskFilters extends Omit<ListTasksQuery, 'today'> {
  today: string;
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
  if (f.open === 'true') where.push(isOpen);
  if (f.status) where.push(eq(tasks.status, f.status));
  if (f.category) where.push(eq(tasks.statusCategory, f.category));
  if (f.priority) where.push(eq(tasks.priority, f.priority));
  if (f.assigneeId === 'unassigned') where.push(isNull(tasks.assigneeId));
  else if (f.assigneeId) where.push(eq(tasks.assigneeId, f.assigneeId));
  const q = f.q?.trim();
  if (q) where.push(containsText(q, tasks.title, tasks.description));
  if (f.due) {
    const range = dueRange(f.due, f.today);
    if (range.from) where.push(gte(tasks.dueDate, range.from));
    if (range.to) where.push(lte(tasks.dueDate, range.to));
    if (!range.from && !range.to) where.push(sql`${tasks.dueDate} is not null`);
    if (range.excludeCompleted) where.push(isOpen);
  }
  return where;
}

/** By category in flow order, then by the status's place in its project's workflow (the default four: today's order). */
const statusRank = [
  sql`array_position(array[${sql.raw(STATUS_CATEGORIES.map((c) => `'${c}'`).join(', '))}]::text[], ${tasks.statusCategory})`,
  sql`(select ps.position from ${projectStatuses} ps where ps.project_id = ${tasks.projectId} and ps.key = ${tasks.status})`,
];
const priorityRank = sql`case ${tasks.priority} when 'low' then 0 when 'medium' then 1 when 'high' then 2 else 3 end`;

function orderBy(sort: TaskSort = 'created', dir: 'asc' | 'desc' = sort === 'created' ? 'desc' : 'asc'): SQL[] {
  const by = dir === 'asc' ? asc : desc;
  const nullsLast = (e: SQL | typeof tasks.dueDate) => sql`${e} ${sql.raw(dir)} nulls last`;
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
    project: by(sql`lower(${projects.name})`),
  };
  // Ties fall back to newest first, then id, so paging is stable.
  return [key[sort], desc(tasks.createdAt), desc(tasks.id)];
}

/** Cards with their project's and assignee's names: the one join every list of cards starts from. */
const selectCards = (db: DbOrTx) =>
  db.select(listColumns).from(tasks).innerJoin(projects, taskProject).leftJoin(users, eq(users.id, tasks.assigneeId));

type ColumnSelect = ReturnType<typeof selectCards>;

/** One statement from the columns' selects (each keeps its own order and limit). */
const unionColumns = <T extends Pick<ColumnSelect, 'getSQL'>>(columns: T[]) =>
  unionAll(...(columns as unknown as [ColumnSelect, ColumnSelect, ...ColumnSelect[]]));

export async function listVisible(db: DbOrTx, userId: string, f: TaskFilters): Promise<TaskListRow[]> {
  return selectCards(db)
    .where(and(...filterConditions(userId, f)))
    .orderBy(...orderBy(f.sort, f.dir))
    .limit(f.limit ?? LIST_PAGE_DEFAULT)
    .offset(f.offset ?? 0);
}

/**
 * The first `limit` tasks of each status, newest first, in one statement (one limited, indexed
 * select per status, joined by UNION ALL), so a board costs one round trip whatever its size.
 * Without task filters (the usual board) it is one of `cardStatements`; with them it is built for
 * the filters at each call.
 */
export async function listBoard(
  db: DbOrTx,
  userId: string,
  f: TaskFilters,
  statuses: readonly string[],
  limit: number,
): Promise<TaskListRow[]> {
  const columns = statuses.map((status) =>
    selectCards(db)
      .where(and(...filterConditions(userId, { ...f, status })))
      .orderBy(...orderBy('created', 'desc'))
      .limit(limit),
  );
  return columns.length > 1 ? unionColumns(columns) : (columns[0] ?? []);
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
      f.open === 'true' ||
      f.category ||
      // The counters' statements read the default four; any other key is counted from its tasks.
      (f.status && !(TASK_STATUSES as readonly string[]).includes(f.status)),
  );

const qb = new QueryBuilder();
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
 * The reads every screen of cards starts with, as row statements (db/row-statements.ts): the board's first screen
 * (each column's newest `limit`) and a page of the list in its default order (newest first), of all visible
 * projects or of one, of every status or of one. Rows in `listColumns` order, mapped by `taskDtoFromRow`.
 */
export const cardStatements = (() => {
  const board = (withProject: boolean) =>
    rowStatement(
      withProject ? 'cards_board_project' : 'cards_board_all',
      unionAll(
        ...(TASK_STATUSES.map((status) =>
          selectCardRows()
            .where(cardWhere(withProject, status))
            .orderBy(...newestFirst)
            .limit(sql.placeholder('limit')),
        ) as unknown as [ColumnSelect, ColumnSelect]),
      ),
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
    board: { all: board(false), project: board(true) },
    /** A page of every visible project or of one (`project`), of every status or of one (`status`). */
    page: {
      all: { all: page(false, false), status: page(false, true) },
      project: { all: page(true, false), status: page(true, true) },
    },
  };
})();

/** The list's query in the one order `cardStatements.page` reads: newest first. */
export const isDefaultOrder = (f: Pick<TaskFilters, 'sort' | 'dir'>) =>
  (f.sort ?? 'created') === 'created' && (f.dir ?? 'desc') === 'desc';

/**
 * Counts per status for the card statements, from the counters (migrations 0004, 0011): of one project, with
 * whether `userId` may see it (no row: no such project), or of every visible project. One statement each, so a page
 * of one project costs two: its cards, and this.
 */
/* Columns: `visible`, then countSums (in TASK_STATUSES order), then the total of every key. */
export const countStatements = {
  project: rowStatement(
    'card_counts_project',
    qb
      .select({ visible: sql<boolean>`${visibleTo(sql.placeholder('userId'))}`, ...countSums, total: countTotal })
      .from(projects)
      .leftJoin(projectStatusCounts, eq(projectStatusCounts.projectId, projects.id))
      .where(eq(projects.id, sql.placeholder('projectId')))
      .groupBy(projects.id),
  ),
  all: rowStatement(
    'card_counts_all',
    qb
      .select({ visible: sql<boolean>`true`, ...countSums, total: countTotal })
      .from(projectStatusCounts)
      .innerJoin(projects, eq(projects.id, projectStatusCounts.projectId))
      .where(visibleTo(sql.placeholder('userId'))),
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

/** The active role of `userId` in the team of the `projects` row in scope (null when not a member). */
const roleIn = (userId: string) => activeRole(projects.teamId, userId);

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
 * the caller's role there, and (when given) the assignee's role there and name.
 */
export async function getProjectAccess(db: DbOrTx, projectId: string, userId: string, assigneeId: string | null) {
  const [row] = await db
    .select({
      teamId: projects.teamId,
      projectName: projects.name,
      callerRole: roleIn(userId),
      assigneeRole: assigneeId ? roleIn(assigneeId) : sql<TeamRole | null>`null`,
      assigneeName: assigneeId
        ? sql<string | null>`(select u.full_name from users u where u.id = ${assigneeId})`
        : sql<string | null>`null`,
      // Whether a webhook may want the change: without one, creation skips the transaction (tasks.service create).
      hasWebhooks: teamHasActiveWebhook(projects.teamId),
    })
    .from(projects)
    .where(eq(projects.id, projectId));
  return row;
}

export type NewTask = typeof tasks.$inferInsert;

export async function createOne(db: DbOrTx, values: NewTask): Promise<TaskRow> {
  const [row] = await db.insert(tasks).values(values).returning();
  return row!;
}

/** Updates and bumps the version; with `expectedVersion`, only if it still matches (else undefined). */
export async function updateOne(
  db: DbOrTx,
  id: string,
  values: Partial<Omit<NewTask, 'id' | 'creatorId' | 'createdAt' | 'version'>>,
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
