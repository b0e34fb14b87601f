import { and, eq, inArray, sql } from 'drizzle-orm';
import type { StatusCategory } from '../../../domain/workflow';
import type { DbOrTx } from '../../db/client';
import { lockFor } from '../../db/locks';
import { projects, taskDependencies, tasks } from '../../db/schema';
import { taskProject } from '../../db/task-access';
import { projectRole, seesProject } from '../../db/visibility';
import type { DependencyEdge } from '../../../domain/dependencies';

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * The team's dependency lock, held to the end of the transaction: two additions in one team run one after the other,
 * so each reads the graph with the other's edge in it and two of them cannot close a cycle together.
 */
export const lockTeamDependencies = (db: DbOrTx, teamId: string): Promise<void> => lockFor(db, 'dependencies', teamId);

/** One end of a dependency: the task, its team, and the caller's role there (null: they may not see it). */
export async function getSide(db: DbOrTx, id: string, userId: string, lock?: 'share') {
  const query = db
    .select({
      id: tasks.id,
      title: tasks.title,
      projectId: tasks.projectId,
      teamId: projects.teamId,
      callerRole: projectRole(projects.teamId, projects.id, userId),
    })
    .from(tasks)
    .innerJoin(projects, taskProject)
    .where(eq(tasks.id, id));
  const [row] = lock ? await query.for(lock, { of: tasks }) : await query;
  return row;
}

/**
 * The edges that matter to "`taskId` blocked by `blockerId`", in one statement: every dependency reachable from the
 * blocker along blocked-by edges (one recursive walk; `union` drops repeats, so it ends within the graph), and the task's
 * own blockers (is it already blocked by it?).
 */
export async function edgesFor(db: DbOrTx, taskId: string, blockerId: string): Promise<DependencyEdge[]> {
  const result = await db.execute(sql`
    with recursive reach(task_id, blocked_by_id) as (
      select d.task_id, d.blocked_by_id from ${taskDependencies} d where d.task_id = ${blockerId}
      union
      select d.task_id, d.blocked_by_id from ${taskDependencies} d join reach r on d.task_id = r.blocked_by_id
    )
    select task_id as "taskId", blocked_by_id as "blockedById" from reach
    union
    select task_id, blocked_by_id from ${taskDependencies} where task_id = ${taskId}`);
  return rowsOf<DependencyEdge>(result);
}

/** The titles of these tasks, by id; null for one the caller may not see (a task in another team). */
export async function titlesFor(db: DbOrTx, ids: readonly string[], userId: string): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: tasks.id, title: tasks.title, visible: seesProject(projects.teamId, projects.id, userId) })
    .from(tasks)
    .innerJoin(projects, taskProject)
    .where(inArray(tasks.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r.visible ? r.title : null]));
}

/** Adds "`taskId` is blocked by `blockerId`"; false when it was there already. */
export async function insertOne(db: DbOrTx, taskId: string, blockerId: string, userId: string): Promise<boolean> {
  const rows = await db
    .insert(taskDependencies)
    .values({ taskId, blockedById: blockerId, createdBy: userId })
    .onConflictDoNothing()
    .returning({ taskId: taskDependencies.taskId });
  return rows.length > 0;
}

/** Removes "`taskId` is blocked by `blockerId`"; false when there was no such dependency. */
export async function deleteOne(db: DbOrTx, taskId: string, blockerId: string): Promise<boolean> {
  const rows = await db
    .delete(taskDependencies)
    .where(and(eq(taskDependencies.taskId, taskId), eq(taskDependencies.blockedById, blockerId)))
    .returning({ taskId: taskDependencies.taskId });
  return rows.length > 0;
}

export interface RefRow {
  side: 'blockedBy' | 'blocking';
  id: string;
  title: string;
  status: string;
  statusCategory: StatusCategory;
  projectId: string;
  visible: boolean;
}

/**
 * Both lists of a task's page in one statement: the tasks blocking it and the tasks it blocks, each with whether the
 * caller may see it (a member of its team), oldest dependency first.
 */
export async function listRefs(db: DbOrTx, taskId: string, userId: string): Promise<RefRow[]> {
  const other = (side: 'blockedBy' | 'blocking', join: 'blocked_by_id' | 'task_id', where: 'task_id' | 'blocked_by_id') => sql`
    select ${sql.raw(`'${side}'`)}::text as side, t.id, t.title, t.status, t.status_category as "statusCategory", t.project_id as "projectId",
      ${seesProject(sql`p.team_id`, sql`p.id`, userId)} as visible, d.created_at
    from ${taskDependencies} d
    join ${tasks} t on t.id = d.${sql.raw(join)}
    join ${projects} p on p.id = t.project_id
    where d.${sql.raw(where)} = ${taskId}`;
  const result = await db.execute(sql`
    ${other('blockedBy', 'blocked_by_id', 'task_id')}
    union all
    ${other('blocking', 'task_id', 'blocked_by_id')}
    order by side, created_at, id`);
  return rowsOf<RefRow>(result);
}

/**
 * The single task read's `blockedBy` and `blocking`: the ids of the other tasks the caller may see (a member of their
 * team), oldest dependency first, in one statement of two array subqueries.
 */
export async function visibleIds(
  db: DbOrTx,
  taskId: string,
  userId: string,
): Promise<{ blockedBy: string[]; blocking: string[] }> {
  const ids = (join: 'blocked_by_id' | 'task_id', where: 'task_id' | 'blocked_by_id') => sql`array_to_json(array(
    select d.${sql.raw(join)} from ${taskDependencies} d
    join ${tasks} t on t.id = d.${sql.raw(join)}
    join ${projects} p on p.id = t.project_id
    where d.${sql.raw(where)} = ${taskId} and ${seesProject(sql`p.team_id`, sql`p.id`, userId)}
    order by d.created_at, d.${sql.raw(join)}))`;
  const result = await db.execute(sql`
    select ${ids('blocked_by_id', 'task_id')} as "blockedBy", ${ids('task_id', 'blocked_by_id')} as "blocking"`);
  const [row] = rowsOf<{ blockedBy: string[] | string; blocking: string[] | string }>(result);
  const list = (v: string[] | string | undefined) => (typeof v === 'string' ? (JSON.parse(v) as string[]) : (v ?? []));
  return { blockedBy: list(row?.blockedBy), blocking: list(row?.blocking) };
}
