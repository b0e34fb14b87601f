import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { TIMELINE_LIMITS } from '../../../domain/schemas/timeline';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { type RowStatement, rowStatement } from '../../db/row-statements';
import { projects, taskDependencies, tasks } from '../../db/schema';
import { taskProject } from '../../db/task-access';
import { seesProject } from '../../db/visibility';

/** Every project the caller sees, one team's, or one project (by placeholders `userId`, `teamId`, `projectId`). */
export type TimelineScope = 'all' | 'team' | 'project';

const qb = new QueryBuilder();

/** What a bar or an unscheduled row needs, then what the server orders and groups them by. */
const timelineColumns = {
  id: tasks.id,
  title: tasks.title,
  projectId: tasks.projectId,
  parentId: tasks.parentId,
  startDate: tasks.startDate,
  dueDate: tasks.dueDate,
  status: tasks.status,
  statusCategory: tasks.statusCategory,
  priority: tasks.priority,
  assigneeId: tasks.assigneeId,
  version: tasks.version,
  projectName: projects.name,
  subtaskPosition: tasks.subtaskPosition,
};
/** The row statements' column positions (rows come back as arrays, in `timelineColumns` order). */
export const COLUMN = Object.fromEntries(Object.keys(timelineColumns).map((key, i) => [key, i])) as Record<
  keyof typeof timelineColumns,
  number
>;

const inScope = (scope: TimelineScope): SQL =>
  and(
    seesProject(projects.teamId, projects.id, sql.placeholder('userId')),
    scope === 'team' ? eq(projects.teamId, sql.placeholder('teamId')) : undefined,
    scope === 'project' ? eq(projects.id, sql.placeholder('projectId')) : undefined,
  )!;

/** The first and last day a dated task covers: both dates, or the one it has twice (a milestone). */
const firstDay = sql`coalesce(${tasks.startDate}, ${tasks.dueDate})`;
const lastDay = sql`coalesce(${tasks.dueDate}, ${tasks.startDate})`;

/**
 * Overlaps [from, to]: starts on or before `to` and ends on or after `from` (a task with neither date never does),
 * in one of the projects in scope. Read on tasks_window_idx (project_id, coalesce(due_date, start_date)), migration
 * 0016: the visible projects' ids come first as an array (an init plan), so the index is walked for those projects
 * from `from` on; the years of history before the window and other teams' tasks are never read. (A join on projects
 * instead is planned, generically, as a scan of every task in the window.)
 */
const inWindow = (scope: TimelineScope): SQL =>
  and(
    sql`${tasks.projectId} = any(array(${qb.select({ id: projects.id }).from(projects).where(inScope(scope))}))`,
    sql`${lastDay} >= ${sql.placeholder('from')}::date`,
    sql`${firstDay} <= ${sql.placeholder('to')}::date`,
  )!;

/**
 * Neither date, not closed: the predicate of tasks_unscheduled_idx (migration 0016), in literals so that the generic
 * plan can use that index (a parameter would not prove the index's predicate).
 */
const isUnscheduled = and(
  isNull(tasks.startDate),
  isNull(tasks.dueDate),
  sql`${tasks.statusCategory} not in ('completed', 'canceled')`,
)!;

const perScope = (make: (scope: TimelineScope) => RowStatement): Record<TimelineScope, RowStatement> => ({
  all: make('all'),
  team: make('team'),
  project: make('project'),
});

/**
 * The open unscheduled tasks in scope, all of them (a materialized CTE, read on tasks_unscheduled_idx project by
 * project), then the newest `TIMELINE_LIMITS.unscheduled` with their count. Counted over the CTE rather than by
 * `count(*) over ()`: with a window function the planner still costs the read as one that stops at the limit, and
 * walks tasks_created_idx newest first through every task of every team.
 */
function unscheduledStatement(scope: TimelineScope): RowStatement {
  const { sql: text, params } = qb
    .select({ ...timelineColumns, createdAt: tasks.createdAt })
    .from(tasks)
    .innerJoin(projects, taskProject)
    .where(and(inScope(scope), isUnscheduled))
    .toSQL();
  return rowStatement(`timeline_unscheduled_${scope}`, {
    toSQL: () => ({
      sql: `with u as materialized (${text}) select u.*, (select count(*) from u) from u order by u.created_at desc, u.id desc limit ${TIMELINE_LIMITS.unscheduled}`,
      params,
    }),
  });
}

/**
 * The timeline's reads, as row statements (db/row-statements.ts), one shape per scope, run side by side:
 * - `dated`: the tasks overlapping the window, by project id, then first day, then id (cheap sort keys: the service
 *   orders the projects by name, and puts each sub-task after its parent).
 * - `dependencies`: the edges out of the same tasks (the same conditions, then each task's edges on the primary key);
 *   the service keeps those whose both ends are among the tasks `dated` answered (a task changed between the two reads
 *   is left out, never half in).
 * - `unscheduled`: `unscheduledStatement`; each row ends with its `created_at`, then how many there are in all.
 */
export const timelineStatements = {
  dated: perScope((scope) =>
    rowStatement(
      `timeline_dated_${scope}`,
      qb
        .select(timelineColumns)
        .from(tasks)
        .innerJoin(projects, taskProject)
        .where(inWindow(scope))
        .orderBy(asc(tasks.projectId), asc(firstDay), asc(tasks.id)),
    ),
  ),
  dependencies: perScope((scope) =>
    rowStatement(
      `timeline_dependencies_${scope}`,
      qb
        .select({ taskId: taskDependencies.taskId, blockedById: taskDependencies.blockedById })
        .from(tasks)
        .innerJoin(taskDependencies, eq(taskDependencies.taskId, tasks.id))
        .where(inWindow(scope)),
    ),
  ),
  unscheduled: perScope(unscheduledStatement),
};

/** True when `userId` sees project `projectId` (an active member of its team; a guest, one given to them). */
export async function isProjectVisible(db: DbOrTx, userId: string, projectId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.id, projectId), seesProject(projects.teamId, projects.id, userId)));
  return row !== undefined;
}
