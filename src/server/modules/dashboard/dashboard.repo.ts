import { and, asc, desc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import { DASHBOARD_LIST_LIMIT } from '../../../domain/dashboard';
import type { DbOrTx } from '../../db/client';
import { projects, projectTaskCounts, tasks, teamMembers, teams } from '../../db/schema';
import { countSums, countTotal, projectTotals } from '../../db/task-counters';
import { isActiveRow, visibleTeamIds } from '../../db/visibility';

/** Ids of the projects in the teams `userId` sees, as a subquery. */
const myProjectIds = (db: DbOrTx, userId: string) =>
  db
    .select({ id: projects.id })
    .from(projects)
    .where(inArray(projects.teamId, visibleTeamIds(userId)));

export interface DashboardCounts {
  totalTasks: number;
  completedTasks: number;
  tasksInProgress: number;
  activeProjects: number;
  teamMembers: number;
  activeTeams: number;
}

/** Every figure in one round trip, over the caller's teams only. */
export async function countForUser(db: DbOrTx, userId: string): Promise<DashboardCounts> {
  const result = (await db.execute(sql`
    with my_teams as ${visibleTeamIds(userId)},
    my_projects as (
      select p.id, p.status from ${projects} p where p.team_id in (select team_id from my_teams)
    ),
    -- The projects' task counters (kept by triggers, migrations 0003 and 0004): no scan of the tasks.
    my_tasks as (
      select ${countTotal} as total, ${countSums.completed} as completed, ${countSums.in_progress} as in_progress
      from ${projectTaskCounts} where ${projectTaskCounts.projectId} in (select id from my_projects)
    )
    select
      my_tasks.total as "totalTasks",
      my_tasks.completed as "completedTasks",
      my_tasks.in_progress as "tasksInProgress",
      (select count(*)::int from my_projects where status = 'active') as "activeProjects",
      (select count(*)::int from ${teamMembers}
        where ${teamMembers.teamId} in (select team_id from my_teams) and ${isActiveRow()}) as "teamMembers",
      (select count(*)::int from my_teams) as "activeTeams"
    from my_tasks`)) as unknown as { rows: Record<keyof DashboardCounts, number | string>[] };
  const row = result.rows[0]!;
  return {
    totalTasks: Number(row.totalTasks),
    completedTasks: Number(row.completedTasks),
    tasksInProgress: Number(row.tasksInProgress),
    activeProjects: Number(row.activeProjects),
    teamMembers: Number(row.teamMembers),
    activeTeams: Number(row.activeTeams),
  };
}

const limit = DASHBOARD_LIST_LIMIT;

/** The newest tasks by updated_at, projects and teams by created_at: candidates for the activity feed. */
export async function listActivityCandidates(db: DbOrTx, userId: string) {
  // Sequential on purpose: inside a transaction these share one connection, which runs one query at a time.
  const taskRows = await db
    .select({ id: tasks.id, title: tasks.title, status: tasks.status, at: tasks.updatedAt })
    .from(tasks)
    .where(inArray(tasks.projectId, myProjectIds(db, userId)))
    .orderBy(desc(tasks.updatedAt), desc(tasks.id))
    .limit(limit);
  const projectRows = await db
    .select({ id: projects.id, title: projects.name, at: projects.createdAt })
    .from(projects)
    .where(inArray(projects.teamId, visibleTeamIds(userId)))
    .orderBy(desc(projects.createdAt), desc(projects.id))
    .limit(limit);
  const teamRows = await db
    .select({ id: teams.id, title: teams.name, at: teams.createdAt })
    .from(teams)
    .where(inArray(teams.id, visibleTeamIds(userId)))
    .orderBy(desc(teams.createdAt), desc(teams.id))
    .limit(limit);
  return [
    ...taskRows.map((r) => ({ ...r, entity: 'task' as const })),
    ...projectRows.map((r) => ({ ...r, entity: 'project' as const })),
    ...teamRows.map((r) => ({ ...r, entity: 'team' as const })),
  ];
}

/** The first projects in the projects list's order (newest first). */
export async function listFirstProjects(db: DbOrTx, userId: string) {
  const totals = projectTotals(db, projects.id);
  return db
    .select({ id: projects.id, name: projects.name, progress: totals.progress, status: projects.status })
    .from(projects)
    .leftJoinLateral(totals, sql`true`)
    .where(inArray(projects.teamId, visibleTeamIds(userId)))
    .orderBy(desc(projects.createdAt), desc(projects.id))
    .limit(limit);
}

/** Tasks not completed with a due date, soonest first (overdue ones included). */
export async function listNextDeadlines(db: DbOrTx, userId: string) {
  return db
    .select({
      id: tasks.id,
      title: tasks.title,
      dueDate: tasks.dueDate,
      priority: tasks.priority,
      status: tasks.status,
      projectId: tasks.projectId,
      projectName: projects.name,
    })
    .from(tasks)
    .innerJoin(projects, eq(projects.id, tasks.projectId))
    .where(and(inArray(projects.teamId, visibleTeamIds(userId)), ne(tasks.status, 'completed'), isNotNull(tasks.dueDate)))
    .orderBy(asc(tasks.dueDate), asc(tasks.createdAt), asc(tasks.id))
    .limit(limit);
}
