import { and, asc, desc, eq, inArray, isNotNull, notInArray, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { DASHBOARD_LIST_LIMIT } from '../../../domain/dashboard';
import type { DbOrTx } from '../../db/client';
import { ssoLockValues } from '../../db/sso-lock';
import { projects, projectStatusCounts, projectStatuses, tasks, teamMembers, teams } from '../../db/schema';
import { categorySum, counterStatus, countTotal, projectTotals } from '../../db/task-counters';
import { isActiveRow, seesPerson, seesProject, visibleProjectIds, visibleTeamIds } from '../../db/visibility';
import type { DashboardDto } from '../../../domain/schemas/dashboard';
import { completionMonths, taskStatusSpans } from '../analytics';
import { parseIsoDate } from '../../../domain/dates';

/** Ids of the projects `userId` sees (decision 0031: a guest, only those given to them), as a subquery. */
const myProjectIds = (userId: string) => visibleProjectIds(userId);

/**
 * `userId` sees the project row in scope (`projects`): the correlated form, for reads that walk tasks joined to their
 * project. `projects.id in visibleProjectIds(…)` there made PostgreSQL compare every task with every visible project
 * (a semi-join it cannot key: 917 × 39 comparisons for the deadlines of 10,000 tasks, against 917 × 5 this way; the
 * dashboard lost a third of its throughput at 32 connections in the roles bench, baseline.md 2026-11-29 evening).
 */
const projectSeenBy = (userId: string) => seesProject(projects.teamId, projects.id, userId);

export interface DashboardCounts {
  totalTasks: number;
  completedTasks: number;
  tasksInProgress: number;
  activeProjects: number;
  teamMembers: number;
  activeTeams: number;
}

export type DashboardTrends = DashboardDto['trends'];

/**
 * This calendar month and the one before in the caller's time zone: where each began (`current`, `previous`), and the
 * first day of each, which is also where that calendar month began in UTC (the monthly completion counts' months).
 */
export interface MonthStarts {
  current: Date;
  previous: Date;
  currentDay: string;
  previousDay: string;
}

const param = (name: string, type: string) => sql`${sql.placeholder(name)}::${sql.raw(type)}`;

/** The counts statement's text, with the completions at the zone's month edges (`zoned`) or without (UTC). */
function countsQuery(zoned: boolean) {
  // Completions (entries into the completed category, migration 0012) between UTC's month start and the zone's (the
  // caller orders the two ends). A current span begins at or after its entry: the bound on from_at lets the completed
  // spans' index read only the range.
  const edge = (from: string, to: string) =>
    zoned
      ? sql`(select count(*)::int from ${taskStatusSpans} s
          where s.project_id in (select id from my_projects) and s.to_at is null and s.category = 'completed'
            and s.from_at >= ${param(from, 'timestamptz')}
            and s.entered_at >= ${param(from, 'timestamptz')} and s.entered_at < ${param(to, 'timestamptz')})`
      : sql`0`;
  return sql`
    with my_teams as ${visibleTeamIds(sql.placeholder('userId'))},
    my_projects as (
      select p.id, p.status, p.created_at from ${projects} p where p.id in ${visibleProjectIds(sql.placeholder('userId'))}
    ),
    -- Which live statuses 'Tasks in Progress' counts (domain workflow.ts inProgressKeys): the started ones, less the
    -- last of a workflow that has two or more.
    my_statuses as (
      select ${projectStatuses.projectId} as project_id, ${projectStatuses.key} as key,
        ${projectStatuses.category} = 'started' and (count(*) over w = 1 or ${projectStatuses.position} < max(${projectStatuses.position}) over w)
          as in_progress
      from ${projectStatuses}
      where ${projectStatuses.projectId} in (select id from my_projects) and ${projectStatuses.deletedAt} is null
      window w as (partition by ${projectStatuses.projectId}, ${projectStatuses.category})
    ),
    -- The projects' task counters (kept by a trigger, migrations 0004 and 0011) by their statuses' categories: no
    -- scan of the tasks.
    my_tasks as (
      select ${countTotal} as total, ${categorySum('completed')} as completed,
        coalesce(sum(${projectStatusCounts.n}) filter (where ms.in_progress), 0)::int as in_progress
      from ${projectStatusCounts}
      left join ${projectStatuses} on ${counterStatus}
      left join my_statuses ms on ms.project_id = ${projectStatusCounts.projectId} and ms.key = ${projectStatusCounts.status}
      where ${projectStatusCounts.projectId} in (select id from my_projects)
    ),
    my_members as (
      select ${teamMembers.userId} as user_id, ${teamMembers.joinedAt} as joined_at from ${teamMembers}
      where ${teamMembers.teamId} in (select team_id from my_teams) and ${isActiveRow()}
        and ${seesPerson(teamMembers.teamId, teamMembers.userId, sql.placeholder('userId'), teamMembers.role)}
    ),
    -- Tasks completed now, per UTC month of their entry into the completed category (migrations 0008, 0012): this
    -- month's and last month's.
    my_months as (
      select coalesce(sum(completed) filter (where month >= ${param('currentDay', 'date')}), 0)::int as current,
        coalesce(sum(completed) filter (where month < ${param('currentDay', 'date')}), 0)::int as previous
      from ${completionMonths}
      where project_id in (select id from my_projects) and month >= ${param('previousDay', 'date')}
    )
    select
      my_tasks.total as total_tasks, my_tasks.completed as completed_tasks, my_tasks.in_progress as tasks_in_progress,
      pr.active as active_projects, pr.active_before as active_projects_before,
      mm.members as team_members, mm.people as members_now, mm.people_before as members_before,
      (select count(*)::int from my_teams) as active_teams,
      my_months.current as months_current, my_months.previous as months_previous,
      ${edge('currentFrom', 'currentTo')} as edge_current,
      ${edge('previousFrom', 'previousTo')} as edge_previous
    from my_tasks, my_months,
      (select count(*) filter (where status = 'active')::int as active,
        count(*) filter (where status = 'active' and created_at < ${param('current', 'timestamptz')})::int as active_before
        from my_projects) pr,
      (select count(*)::int as members, count(distinct user_id)::int as people,
        count(distinct user_id) filter (where joined_at < ${param('current', 'timestamptz')})::int as people_before
        from my_members) mm`;
}

// Built once, text and all: a request only binds its values (building this text cost as much as running it).
const dialect = new PgDialect();
const countsQueries = { utc: dialect.sqlToQuery(countsQuery(false)), zoned: dialect.sqlToQuery(countsQuery(true)) };

interface CountsRow {
  total_tasks: number;
  completed_tasks: number;
  tasks_in_progress: number;
  active_projects: number;
  active_projects_before: number;
  team_members: number;
  members_now: number;
  members_before: number;
  active_teams: number;
  months_current: number;
  months_previous: number;
  edge_current: number;
  edge_previous: number;
}

/**
 * The counts statement, prepared: run on the same connection again, PostgreSQL reuses its plan instead of planning
 * it anew, which cost more than the trends add to it.
 */
async function readCounts(db: DbOrTx, zoned: boolean, values: Record<string, string>): Promise<CountsRow> {
  const statement = db._.session.prepareQuery(
    zoned ? countsQueries.zoned : countsQueries.utc,
    undefined,
    zoned ? 'dashboard_counts_zoned' : 'dashboard_counts',
    false,
  );
  const result = (await statement.execute({ ...values, ...ssoLockValues(values.userId) })) as { rows: CountsRow[] };
  return result.rows[0]!;
}

/**
 * Every figure in one round trip, over the caller's teams only, with the month-over-month trends (issue 24,
 * decision 0018). Completions come from the counts per project and UTC month (migration 0008), corrected at each
 * end by the completions between the zone's month start and UTC's (at most 14 hours of them, read from the spans);
 * projects and members from their creation and joining times.
 */
export async function countForUser(
  db: DbOrTx,
  userId: string,
  months: MonthStarts,
): Promise<DashboardCounts & { trends: DashboardTrends }> {
  const { current, previous, currentDay, previousDay } = months;
  // Where UTC's month began against the zone's: the completions in between move from one month to the other.
  const edge = (local: Date, day: string) => {
    const utc = parseIsoDate(day);
    return { from: local < utc ? local : utc, to: local < utc ? utc : local, sign: local < utc ? -1 : 1 };
  };
  const c = edge(current, currentDay);
  const p = edge(previous, previousDay);
  const zoned = c.from.getTime() !== c.to.getTime() || p.from.getTime() !== p.to.getTime();
  const row = await readCounts(db, zoned, {
    userId,
    currentDay,
    previousDay,
    current: current.toISOString(),
    currentFrom: c.from.toISOString(),
    currentTo: c.to.toISOString(),
    previousFrom: p.from.toISOString(),
    previousTo: p.to.toISOString(),
  });
  const n = (key: keyof CountsRow) => Number(row[key]);
  // Completions from UTC's month start to the zone's (negative when the zone's comes first).
  const shiftCurrent = c.sign * n('edge_current');
  const shiftPrevious = p.sign * n('edge_previous');
  return {
    totalTasks: n('total_tasks'),
    completedTasks: n('completed_tasks'),
    tasksInProgress: n('tasks_in_progress'),
    activeProjects: n('active_projects'),
    teamMembers: n('team_members'),
    activeTeams: n('active_teams'),
    trends: {
      completedTasks: {
        current: n('months_current') - shiftCurrent,
        previous: n('months_previous') - shiftPrevious + shiftCurrent,
      },
      // No history of a project's status exists: last month's figure is this month's active projects that existed then.
      activeProjects: { current: n('active_projects'), previous: n('active_projects_before') },
      teamMembers: { current: n('members_now'), previous: n('members_before') },
    },
  };
}

const limit = DASHBOARD_LIST_LIMIT;

/** The newest projects the user sees, or teams they are in, by created_at. */
const newestVisible = (db: DbOrTx, userId: string, table: typeof projects | typeof teams) =>
  db
    .select({ id: table.id, title: table.name, at: table.createdAt })
    .from(table)
    .where(table === projects ? projectSeenBy(userId) : inArray(teams.id, visibleTeamIds(userId)))
    .orderBy(desc(table.createdAt), desc(table.id))
    .limit(limit);

/** The newest tasks by updated_at, projects and teams by created_at: candidates for the activity feed. */
export async function listActivityCandidates(db: DbOrTx, userId: string) {
  // Sequential on purpose: inside a transaction these share one connection, which runs one query at a time.
  const taskRows = await db
    .select({ id: tasks.id, title: tasks.title, category: tasks.statusCategory, at: tasks.updatedAt })
    .from(tasks)
    .where(inArray(tasks.projectId, myProjectIds(userId)))
    .orderBy(desc(tasks.updatedAt), desc(tasks.id))
    .limit(limit);
  const projectRows = await newestVisible(db, userId, projects);
  const teamRows = await newestVisible(db, userId, teams);
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
    .where(projectSeenBy(userId))
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
      statusCategory: tasks.statusCategory,
      projectId: tasks.projectId,
      projectName: projects.name,
    })
    .from(tasks)
    .innerJoin(projects, eq(projects.id, tasks.projectId))
    .where(and(projectSeenBy(userId), notInArray(tasks.statusCategory, ['completed', 'canceled']), isNotNull(tasks.dueDate)))
    .orderBy(asc(tasks.dueDate), asc(tasks.createdAt), asc(tasks.id))
    .limit(limit);
}
