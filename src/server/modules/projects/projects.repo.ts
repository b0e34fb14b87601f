import { and, desc, eq, not, sql, type SQL } from 'drizzle-orm';
import type { ListProjectsQuery, ProjectDto } from '../../../domain/schemas/project';
import type { DbOrTx } from '../../db/client';
import { projects, tasks, teamMembers, teams } from '../../db/schema';
import { insertDefaultStatuses } from '../../db/project-statuses';
import { containsText } from '../../db/search';
import { projectTotals } from '../../db/task-counters';
import { activeMembership, isActiveMember, seesProjectAs, visibleMemberCount } from '../../db/visibility';

export type ProjectRow = typeof projects.$inferSelect;

/**
 * Projects as the caller sees them, with the team's name, its active member count, the task count
 * and the caller's role there (whether they may edit is the domain's rule), all in one query.
 */
function selectVisible(db: DbOrTx, userId: string) {
  const totals = projectTotals(db, projects.id);
  return (
    db
      .select({
        id: projects.id,
        name: projects.name,
        description: projects.description,
        status: projects.status,
        ownerId: projects.ownerId,
        teamId: projects.teamId,
        teamName: teams.name,
        teamMemberCount: visibleMemberCount(projects.teamId, userId, teamMembers.role),
        startDate: projects.startDate,
        endDate: projects.endDate,
        progress: totals.progress,
        taskCount: totals.taskCount,
        createdAt: projects.createdAt,
        updatedAt: projects.updatedAt,
        version: projects.version,
        callerRole: teamMembers.role,
      })
      .from(projects)
      .innerJoin(teams, eq(teams.id, projects.teamId))
      // A guest's membership row joins only the projects given to them (decision 0031).
      .innerJoin(
        teamMembers,
        and(activeMembership({ teamId: projects.teamId, userId }), seesProjectAs(teamMembers.role, projects.id, userId)),
      )
      .leftJoinLateral(totals, sql`true`)
  );
}

type VisibleRow = Awaited<ReturnType<ReturnType<typeof selectVisible>['execute']>>[number];

function toDto({ callerRole, ...row }: VisibleRow): ProjectDto {
  return {
    ...row,
    teamMemberCount: Number(row.teamMemberCount),
    taskCount: Number(row.taskCount),
    myRole: callerRole,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listVisible(db: DbOrTx, userId: string, filters: ListProjectsQuery): Promise<ProjectDto[]> {
  const where: SQL[] = [];
  if (filters.teamId) where.push(eq(projects.teamId, filters.teamId));
  if (filters.status) where.push(eq(projects.status, filters.status));
  const q = filters.q?.trim();
  if (q) where.push(containsText(q, projects.name, projects.description));
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
  // Its workflow, in the same transaction: no task can be written before the project has statuses.
  await insertDefaultStatuses(db, [row!.id]);
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
/**
 * A project moved to another team: its tasks' custom field values were the old team's fields (decision 0026), so they go
 * (the values table follows by its trigger).
 */
export async function clearFieldValues(db: DbOrTx, projectId: string): Promise<void> {
  await db
    .update(tasks)
    .set({ fields: {}, updatedAt: sql`now()` })
    .where(and(eq(tasks.projectId, projectId), sql`${tasks.fields} <> '{}'::jsonb`));
}

export async function unassignNonMembers(db: DbOrTx, projectId: string, teamId: string): Promise<void> {
  await db
    .update(tasks)
    .set({ assigneeId: null, updatedAt: sql`now()` })
    .where(
      and(eq(tasks.projectId, projectId), sql`${tasks.assigneeId} is not null`, not(isActiveMember(teamId, tasks.assigneeId))),
    );
}
