import { and, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { ProjectStatus } from '../../../domain/constants';
import type { ListProjectsQuery, ProjectDto } from '../../../domain/schemas/project';
import type { DbOrTx } from '../../db/client';
import { projectTotals } from '../../db/task-counters';
import { projects, tasks, teamMembers, teams } from '../../db/schema';

export type ProjectRow = typeof projects.$inferSelect;

/** Escapes LIKE wildcards so a search for '50%' means the text '50%'. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Projects as the caller sees them, with the team's name, its active member count, the task count
 * and whether the caller may edit (owner/admin), all in one query.
 */
function selectVisible(db: DbOrTx, userId: string) {
  const totals = projectTotals(db, projects.id);
  return db
    .select({
      id: projects.id,
      name: projects.name,
      description: projects.description,
      status: projects.status,
      ownerId: projects.ownerId,
      teamId: projects.teamId,
      teamName: teams.name,
      teamMemberCount: sql<number>`(select count(*) from team_members tm where tm.team_id = ${projects.teamId} and tm.status = 'active')::int`,
      startDate: projects.startDate,
      endDate: projects.endDate,
      progress: totals.progress,
      taskCount: totals.taskCount,
      createdAt: projects.createdAt,
      updatedAt: projects.updatedAt,
      version: projects.version,
      canEdit: sql<boolean>`${teamMembers.role} in ('owner', 'admin')`,
    })
    .from(projects)
    .innerJoin(teams, eq(teams.id, projects.teamId))
    .innerJoin(
      teamMembers,
      and(eq(teamMembers.teamId, projects.teamId), eq(teamMembers.userId, userId), eq(teamMembers.status, 'active')),
    )
    .leftJoinLateral(totals, sql`true`);
}

type VisibleRow = Awaited<ReturnType<ReturnType<typeof selectVisible>['execute']>>[number];

function toDto(row: VisibleRow): ProjectDto {
  return {
    ...row,
    status: row.status as ProjectStatus,
    teamMemberCount: Number(row.teamMemberCount),
    taskCount: Number(row.taskCount),
    canEdit: Boolean(row.canEdit),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listVisible(db: DbOrTx, userId: string, filters: ListProjectsQuery): Promise<ProjectDto[]> {
  const where: SQL[] = [];
  if (filters.teamId) where.push(eq(projects.teamId, filters.teamId));
  if (filters.status) where.push(eq(projects.status, filters.status));
  const q = filters.q?.trim();
  if (q) where.push(or(ilike(projects.name, likePattern(q)), ilike(projects.description, likePattern(q)))!);
  const rows = await selectVisible(db, userId)
    .where(and(...where))
    .orderBy(desc(projects.createdAt), desc(projects.id));
  return rows.map(toDto);
}

export async function getVisibleById(db: DbOrTx, userId: string, id: string): Promise<ProjectDto | undefined> {
  const [row] = await selectVisible(db, userId).where(eq(projects.id, id));
  return row ? toDto(row) : undefined;
}

/** The stored row, locked for the rest of the transaction. */
export async function getOneByIdForUpdate(db: DbOrTx, id: string): Promise<ProjectRow | undefined> {
  const [row] = await db.select().from(projects).where(eq(projects.id, id)).for('update');
  return row;
}

export async function createOne(
  db: DbOrTx,
  values: Pick<ProjectRow, 'name' | 'description' | 'status' | 'ownerId' | 'teamId' | 'startDate' | 'endDate'>,
): Promise<ProjectRow> {
  const [row] = await db.insert(projects).values(values).returning();
  return row!;
}

/** Writes the changes if the row is still at `version`; returns the new row, or undefined when it moved on. */
export async function updateOne(
  db: DbOrTx,
  id: string,
  version: number,
  changes: Partial<Pick<ProjectRow, 'name' | 'description' | 'status' | 'teamId' | 'startDate' | 'endDate'>>,
): Promise<ProjectRow | undefined> {
  const [row] = await db
    .update(projects)
    .set({ ...changes, version: sql`${projects.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(projects.id, id), eq(projects.version, version)))
    .returning();
  return row;
}

export async function deleteOne(db: DbOrTx, id: string): Promise<void> {
  await db.delete(projects).where(eq(projects.id, id));
}

/** After a move to another team: assignees who are not active members there are unassigned. */
export async function unassignNonMembers(db: DbOrTx, projectId: string, teamId: string): Promise<void> {
  await db
    .update(tasks)
    .set({ assigneeId: null, updatedAt: sql`now()` })
    .where(
      and(
        eq(tasks.projectId, projectId),
        sql`${tasks.assigneeId} is not null`,
        sql`not exists (select 1 from team_members tm where tm.team_id = ${teamId} and tm.user_id = ${tasks.assigneeId} and tm.status = 'active')`,
      ),
    );
}
