import { sql } from 'drizzle-orm';
import { TIME_ANALYTICS_LIMITS } from '../../../domain/schemas/analytics';
import type { DbOrTx } from '../../db/client';
import { projects, tasks, teamMembers, timeEntries, users } from '../../db/schema';
import { seesProject } from '../../db/visibility';
import { taskStatusSpans } from './analytics.repo';

/** A PostgreSQL array literal of values that need no quoting (uuids). */
const arrayLiteral = (values: readonly string[]) => `{${values.join(',')}}`;

export interface TimeScopeInput {
  userId: string;
  teamIds: string[];
  projectId: string | null;
}

/** The scope's projects (the teams', or the one project; a guest's, only those given to them), with their names and teams: a CTE named `p`. */
const scopeProjects = (input: TimeScopeInput) => sql`p as (
  select ${projects.id} as id, ${projects.name} as name, ${projects.teamId} as team_id from ${projects}
  where ${projects.teamId} = any(${arrayLiteral(input.teamIds)}::uuid[])
    and (${input.projectId}::uuid is null or ${projects.id} = ${input.projectId}::uuid)
    and ${seesProject(projects.teamId, projects.id, input.userId)}
)`;

export interface LoggedRow {
  /** 0-based week of the period. */
  k: number;
  /** The person, or null for a member the caller may not name (not themself, in a team they do not run). */
  userId: string | null;
  userName: string | null;
  projectId: string;
  projectName: string;
  minutes: number;
}

/**
 * The minutes logged from `from` to `to` (calendar dates, both included) on the scope's tasks, per week (counted from
 * `from`, a Monday), person and project. A person's name shows to themself and to the owners and admins of the entry's
 * team (who may read their entries, decision 0027); anyone else's time counts under no name.
 */
export async function readLogged(db: DbOrTx, input: TimeScopeInput & { from: string; to: string }): Promise<LoggedRow[]> {
  const result = await db.execute(sql`
    with ${scopeProjects(input)},
    runs as (
      select ${teamMembers.teamId} as team_id from ${teamMembers}
      where ${teamMembers.userId} = ${input.userId}::uuid and ${teamMembers.status} = 'active'
        and ${teamMembers.role} in ('owner', 'admin')
    ),
    e as (
      select ((${timeEntries.date} - ${input.from}::date) / 7)::int as k,
        case when ${timeEntries.userId} = ${input.userId}::uuid or p.team_id in (select team_id from runs)
          then ${timeEntries.userId} end as user_id,
        p.id as project_id, ${timeEntries.minutes} as minutes
      from p join ${tasks} on ${tasks.projectId} = p.id join ${timeEntries} on ${timeEntries.taskId} = ${tasks.id}
      where ${timeEntries.date} between ${input.from}::date and ${input.to}::date
    )
    select e.k, e.user_id as "userId", u.full_name as "userName", e.project_id as "projectId", p.name as "projectName",
      sum(e.minutes)::int as minutes
    from e join p on p.id = e.project_id left join ${users} u on u.id = e.user_id
    group by e.k, e.user_id, u.full_name, e.project_id, p.name`);
  return (result as unknown as { rows: LoggedRow[] }).rows;
}

export interface EstimateRow {
  count: number;
  median: number | string | null;
  overCount: number;
  estimateMinutes: number;
  actualMinutes: number;
  tasks:
    | [
        taskId: string,
        title: string,
        projectId: string,
        projectName: string,
        completedAt: string,
        estimate: number,
        actual: number,
      ][]
    | null;
}

/**
 * Estimate vs actual: the scope's tasks completed in [start, end) (their current span in the completed category,
 * entered then: throughput's rule) with an estimate in minutes and time logged, their own and their sub-tasks'.
 */
export async function readEstimates(db: DbOrTx, input: TimeScopeInput & { start: Date; end: Date }): Promise<EstimateRow> {
  const s = taskStatusSpans;
  const start = input.start.toISOString();
  const end = input.end.toISOString();
  const result = await db.execute(sql`
    with ${scopeProjects(input)},
    done as (
      select sp.task_id, sp.entered_at from p join ${s} sp on sp.project_id = p.id
      where sp.to_at is null and sp.category = 'completed' and sp.from_at >= ${start}::timestamptz
        and sp.entered_at >= ${start}::timestamptz and sp.entered_at < ${end}::timestamptz
    ),
    r as (
      select t.id, t.title, t.project_id, p.name, d.entered_at, t.estimate_minutes as est,
        t.logged_minutes + t.subtask_logged_minutes as actual
      from done d join ${tasks} t on t.id = d.task_id join p on p.id = t.project_id
      where t.estimate_minutes is not null and t.logged_minutes + t.subtask_logged_minutes > 0
    )
    select count(*)::int as count,
      percentile_cont(0.5) within group (order by r.actual::float8 / r.est) as median,
      (count(*) filter (where r.actual > r.est))::int as "overCount",
      coalesce(sum(r.est), 0)::int as "estimateMinutes", coalesce(sum(r.actual), 0)::int as "actualMinutes",
      (select json_agg(json_build_array(x.id, x.title, x.project_id, x.name, x.entered_at, x.est, x.actual)
          order by x.entered_at desc, x.id)
        from (select * from r order by r.entered_at desc, r.id limit ${sql.raw(String(TIME_ANALYTICS_LIMITS.estimateRows))}) x)
        as tasks
    from r`);
  return (result as unknown as { rows: EstimateRow[] }).rows[0]!;
}
