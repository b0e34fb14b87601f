import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { CYCLE_TIME_BUCKETS } from '../../../domain/analytics';
import { ANALYTICS_LIMITS } from '../../../domain/schemas/analytics';
import type { StatusCategory } from '../../../domain/workflow';
import type { DbOrTx } from '../../db/client';
import { ssoLockValues } from '../../db/sso-lock';
import {
  customFields,
  projects,
  projectStatusCounts,
  projectStatuses,
  taskFieldValues,
  tasks,
  teamMembers,
  users,
} from '../../db/schema';
import { categorySum, counterStatus, countTotal } from '../../db/task-counters';
import { activeMembership, seesProject } from '../../db/visibility';

/**
 * The tasks' status history as spans of time (migrations 0008 and 0012, kept by triggers from tasks and task_activity;
 * not in db/schema yet): task_id, seq, project_id, status (the key), category (the status's category at the time),
 * from_at, to_at (null: the status it is in now), due_date, started_at (its first entry into a started status at or
 * before the span began), entered_at (when it entered the span's category: moving between two completed statuses is
 * not a new completion).
 */
export const taskStatusSpans = sql.raw('task_status_spans');
/** Tasks completed now per project and UTC month (migration 0008, in slots): project_id, month, slot, completed. */
export const completionMonths = sql.raw('project_completion_months');

/** A PostgreSQL array literal of values that need no quoting (uuids, ISO dates and instants). */
const arrayLiteral = (values: readonly string[]) => `{${values.join(',')}}`;

export interface ScopeRow {
  /** The caller's active teams (only `teamId` when given and they are a member of it). */
  teamIds: string[];
  /** The team of `projectId`, when the project exists, is in one of those teams and the caller sees it (a guest's). */
  projectTeamId: string | null;
}

/** The teams the caller may see in the scope, and whether the project (if any) is among them. */
export async function resolveScope(
  db: DbOrTx,
  userId: string,
  teamId: string | undefined,
  projectId: string | undefined,
): Promise<ScopeRow> {
  const teamRows = await db
    .select({ teamId: teamMembers.teamId })
    .from(teamMembers)
    .where(activeMembership({ userId, teamId }))
    .orderBy(asc(teamMembers.teamId));
  const teamIds = teamRows.map((r) => r.teamId);
  let projectTeamId: string | null = null;
  if (projectId && teamIds.length > 0) {
    const [row] = await db
      .select({ teamId: projects.teamId })
      .from(projects)
      .where(
        and(eq(projects.id, projectId), inArray(projects.teamId, teamIds), seesProject(projects.teamId, projects.id, userId)),
      );
    projectTeamId = row?.teamId ?? null;
  }
  return { teamIds, projectTeamId };
}

export interface FigureInput {
  /** The caller: of the teams' projects, only those they see count (decision 0031: a guest's). */
  userId: string;
  teamIds: string[];
  projectId: string | null;
  /** Each week's start and end (its end: the next week's start, or now), oldest first. */
  starts: Date[];
  ends: Date[];
  /** The day overdue is judged on at each week's end. */
  lastDays: string[];
  /** Where the last week ends in full (completions are counted before it). */
  periodEnd: Date;
}

type WeekCount = [week: number, count: number];

export interface FiguresRow {
  /** 1-based week index (as width_bucket gives it) → completions. */
  throughput: WeekCount[] | null;
  cycle: [week: number, count: number, median: number, p85: number][] | null;
  distribution: WeekCount[] | null;
  /** project, week (0-based), scope, completed; the projects largest first. */
  burnup: [projectId: string, name: string, week: number, scope: number, completed: number][] | null;
  /** Every live status of the scope's projects (to apply the board's rule) with its tasks now, by the counters. */
  wip:
    | [projectId: string, key: string, name: string, category: StatusCategory, color: string, position: number, n: number][]
    | null;
  ageing:
    | [taskId: string, title: string, status: string, projectId: string, projectName: string, since: string, statusName: string][]
    | null;
  workload:
    | [assigneeId: string | null, name: string | null, low: number, medium: number, high: number, urgent: number, total: number][]
    | null;
  /** week (0-based) → overdue tasks. */
  overdue: WeekCount[] | null;
}

const iso = (ds: Date[]) => arrayLiteral(ds.map((d) => d.toISOString()));
const bucketCase = sql.raw(
  `case ${CYCLE_TIME_BUCKETS.map((b, i) => (b.maxHours === null ? `else ${i}` : `when hours < ${b.maxHours} then ${i}`)).join(' ')} end`,
);
const param = (name: string, type: string) => sql`${sql.placeholder(name)}::${sql.raw(type)}`;

/**
 * Every figure of the page in one statement (one snapshot, one round trip), prepared once per connection: planning
 * it costs more than running it. Each part reads an index over the period's changes only (decision 0018): what was
 * true at a week's end is what is true now, minus what began after it, plus what ended after it. A week index `k`
 * below is 0-based; `width_bucket(x − 1 µs, ends)` counts the week ends before x: the first week whose end is at or
 * after x.
 */
function buildFigures(db: DbOrTx) {
  const s = taskStatusSpans;
  const figures = sql`(
    with b as (
      select starts, ends, days, period_end, team_ids, project_id, starts[1] as first_at, ends[1] as e0,
        days[array_length(days, 1)] as d_last, array_length(starts, 1) as n
      from (select ${param('starts', 'timestamptz[]')} as starts, ${param('ends', 'timestamptz[]')} as ends,
        ${param('days', 'date[]')} as days, ${param('periodEnd', 'timestamptz')} as period_end,
        ${param('teamIds', 'uuid[]')} as team_ids, ${param('projectId', 'uuid')} as project_id) as prm
    ),
    p as (
      select ${projects.id} as id, ${projects.name} as name from ${projects}, b
      where ${projects.teamId} = any(b.team_ids) and (b.project_id is null or ${projects.id} = b.project_id)
        and ${seesProject(projects.teamId, projects.id, param('userId', 'uuid'))}
    ),
    pids as (select array_agg(id) as ids from p),
    w as (select k from b, generate_series(0, b.n - 1) as k),
    -- Tasks in the completed category now, whose current span began since the period did: those that entered the
    -- category in the period (in_period, by entered_at) are its completions, their cycle time from their first entry
    -- into a started status (domain workflow.ts cycleTime); those whose span began after the first week's end (kf: the
    -- first end at or after) were not in it at the ends before (an earlier completed span of theirs is in closed_g).
    done as (
      select sp.project_id, width_bucket(sp.entered_at, b.starts) as wk,
        sp.entered_at >= b.first_at and sp.entered_at < b.period_end as in_period,
        extract(epoch from (sp.entered_at - sp.started_at)) / 3600.0 as hours,
        case when sp.from_at > b.e0 then width_bucket(sp.from_at - interval '1 microsecond', b.ends) end as kf
      from b, pids, ${s} sp
      where sp.project_id = any(pids.ids) and sp.to_at is null and sp.category = 'completed' and sp.from_at >= b.first_at
    ),
    counts as (
      select ${projectStatusCounts.projectId} as project_id, ${countTotal} as total, ${categorySum('completed')} as completed,
        ${categorySum('canceled')} as canceled
      from pids, ${projectStatusCounts} left join ${projectStatuses} on ${counterStatus}
      where ${projectStatusCounts.projectId} = any(pids.ids) group by 1
    ),
    -- The burn-up's projects: the largest now.
    bp as (
      select counts.project_id, p.name, counts.total, counts.completed, counts.canceled
      from counts join p on p.id = counts.project_id
      where counts.total > 0 order by counts.total desc, p.name, p.id limit ${sql.raw(String(ANALYTICS_LIMITS.burnupProjects))}
    ),
    -- Tasks created after the first week's end: not in the scope of the ends before.
    created_g as (
      select ${tasks.projectId} as project_id, width_bucket(${tasks.createdAt} - interval '1 microsecond', b.ends) as kf,
        count(*)::int as n
      from b, ${tasks}
      where ${tasks.projectId} in (select project_id from bp) and ${tasks.createdAt} > b.e0
      group by 1, 2
    ),
    -- Canceled now, since after the first week's end (kf as in done): not canceled, so in the burn-up's scope, at the
    -- ends before.
    canceled_g as (
      select sp.project_id, width_bucket(sp.from_at - interval '1 microsecond', b.ends) as kf, count(*)::int as n
      from b, ${s} sp
      where sp.project_id in (select project_id from bp) and sp.to_at is null and sp.from_at > b.e0
        and sp.category = 'canceled'
      group by 1, 2
    ),
    -- Spans that ended after the first week's end: there at the ends from their start to their end. In the completed
    -- category, the task was completed then; in the canceled one, out of the burn-up's scope then; in an open one
    -- (neither) past its due date at a week's end (kd: the first week whose day is after it), it was overdue then.
    closed_g as (
      select sp.project_id, sp.category = 'completed' as is_done, sp.category = 'canceled' as is_canceled,
        width_bucket(sp.from_at - interval '1 microsecond', b.ends) as kf,
        width_bucket(sp.to_at - interval '1 microsecond', b.ends) as kt,
        case when sp.category not in ('completed', 'canceled') then width_bucket(sp.due_date, b.days) end as kd,
        count(*)::int as n
      from b, pids, ${s} sp
      where sp.project_id = any(pids.ids) and sp.to_at is not null and sp.to_at > b.e0
        and (sp.category in ('completed', 'canceled') or sp.due_date < b.d_last)
      group by 1, 2, 3, 4, 5, 6
    ),
    -- What each week's end lacks of now (a task created or completed after it, a cancellation undone after it) or has
    -- more (a completion undone after it, a task canceled after it). The scope is the tasks less the canceled ones, as
    -- progress counts them (domain workflow.ts progressOf).
    burnup_delta as (
      select c.project_id, w.k, -sum(c.n) as scope, 0 as completed
      from created_g c join w on c.kf > w.k group by 1, 2
      union all
      select c.project_id, w.k, sum(c.n), 0
      from canceled_g c join w on c.kf > w.k group by 1, 2
      union all
      select c.project_id, w.k, -sum(c.n), 0
      from closed_g c join w on c.kf <= w.k and c.kt > w.k where c.is_canceled and c.project_id in (select project_id from bp)
      group by 1, 2
      union all
      select d.project_id, w.k, 0, -sum(d.n)
      from (
        select project_id, kf, count(*) as n from done where kf is not null and project_id in (select project_id from bp)
        group by 1, 2
      ) d join w on d.kf > w.k group by 1, 2
      union all
      select c.project_id, w.k, 0, sum(c.n)
      from closed_g c join w on c.kf <= w.k and c.kt > w.k where c.is_done and c.project_id in (select project_id from bp)
      group by 1, 2
    ),
    burnup as (
      select bp.project_id, bp.name, bp.total as size, w.k,
        (bp.total - bp.canceled + coalesce(sum(d.scope), 0))::int as scope,
        (bp.completed + coalesce(sum(d.completed), 0))::int as completed
      from bp cross join w left join burnup_delta d on d.project_id = bp.project_id and d.k = w.k
      group by bp.project_id, bp.name, bp.total, bp.canceled, bp.completed, w.k
    ),
    -- Open now and due before the last counted day: overdue from the first week whose end they contain and whose
    -- day is after their due date; with the open spans that ended in the period.
    od as (
      select greatest(width_bucket(sp.due_date, b.days), width_bucket(sp.from_at - interval '1 microsecond', b.ends)) as kf,
        b.n as kt, count(*)::int as n
      from b, pids, ${s} sp
      where sp.project_id = any(pids.ids) and sp.to_at is null and sp.category not in ('completed', 'canceled')
        and sp.due_date < b.d_last
      group by 1, 2
      union all
      select greatest(c.kd, c.kf), c.kt, sum(c.n)::int from closed_g c where c.kd is not null group by 1, 2
    ),
    ageing as (
      select a.task_id, a.status, a.from_at, a.project_id
      from pids, unnest(pids.ids) as pp(id)
      cross join lateral (
        select sp.task_id, sp.status, sp.from_at, sp.project_id from ${s} sp
        where sp.project_id = pp.id and sp.to_at is null and sp.category not in ('completed', 'canceled')
        order by sp.from_at, sp.task_id limit ${sql.raw(String(ANALYTICS_LIMITS.ageingRows))}
      ) a
      order by a.from_at, a.task_id limit ${sql.raw(String(ANALYTICS_LIMITS.ageingRows))}
    ),
    -- Open tasks (by category, decision 0024) per assignee and priority, then per assignee (the open-tasks index of
    -- migration 0012).
    load as (
      select t.assignee_id, t.priority, count(*)::int as n
      from pids, ${tasks} t
      where t.project_id = any(pids.ids) and t.status_category not in ('completed', 'canceled')
      group by 1, 2
    ),
    workload as (
      select assignee_id,
        coalesce(sum(n) filter (where priority = 'low'), 0)::int as low,
        coalesce(sum(n) filter (where priority = 'medium'), 0)::int as medium,
        coalesce(sum(n) filter (where priority = 'high'), 0)::int as high,
        coalesce(sum(n) filter (where priority = 'urgent'), 0)::int as urgent,
        sum(n)::int as total
      from load group by assignee_id
    )
    select
      (select json_agg(json_build_array(wk, n)) from (select wk, count(*)::int as n from done where in_period group by wk) x) as throughput,
      (select json_agg(json_build_array(wk, n, med, p85)) from (
        select wk, count(*)::int as n, percentile_cont(0.5) within group (order by hours) as med,
          percentile_cont(0.85) within group (order by hours) as p85
        from done where in_period and hours is not null group by wk) x) as cycle,
      (select json_agg(json_build_array(bucket, n)) from (
        select ${bucketCase} as bucket, count(*)::int as n from done where in_period and hours is not null group by 1) x)
        as distribution,
      (select json_agg(json_build_array(project_id, name, k, scope, completed) order by size desc, name, project_id, k)
        from burnup) as burnup,
      (select json_agg(json_build_array(st.project_id, st.key, st.name, st.category, st.color, st.position, st.n)
          order by st.project_id, st.position)
        from (
          select s.project_id, s.key, s.name, s.category, s.color, s.position, coalesce(sum(c.n), 0)::int as n
          from pids, ${projectStatuses} s left join ${projectStatusCounts} c on c.project_id = s.project_id and c.status = s.key
          where s.project_id = any(pids.ids) and s.deleted_at is null
          group by s.id) st) as wip,
      (select json_agg(json_build_array(a.task_id, t.title, a.status, a.project_id, p.name, a.from_at, coalesce(ps.name, a.status))
          order by a.from_at, a.task_id)
        from ageing a join ${tasks} t on t.id = a.task_id join p on p.id = a.project_id
        left join ${projectStatuses} ps on ps.project_id = a.project_id and ps.key = a.status) as ageing,
      (select json_agg(json_build_array(wl.assignee_id, u.full_name, wl.low, wl.medium, wl.high, wl.urgent, wl.total)
          order by wl.total desc, u.full_name nulls last, wl.assignee_id)
        from workload wl left join ${users} u on u.id = wl.assignee_id) as workload,
      (select json_agg(json_build_array(k, n) order by k) from (
        select w.k, coalesce(sum(od.n), 0)::int as n from w left join od on od.kf <= w.k and od.kt > w.k group by w.k) x)
        as overdue
  ) as figures`;
  const f = (column: string) => sql.raw(`figures.${column}`);
  return db
    .select({
      throughput: sql<FiguresRow['throughput']>`${f('throughput')}`,
      cycle: sql<FiguresRow['cycle']>`${f('cycle')}`,
      distribution: sql<FiguresRow['distribution']>`${f('distribution')}`,
      burnup: sql<FiguresRow['burnup']>`${f('burnup')}`,
      wip: sql<FiguresRow['wip']>`${f('wip')}`,
      ageing: sql<FiguresRow['ageing']>`${f('ageing')}`,
      workload: sql<FiguresRow['workload']>`${f('workload')}`,
      overdue: sql<FiguresRow['overdue']>`${f('overdue')}`,
    })
    .from(figures)
    .prepare('analytics_figures');
}

const prepared = new WeakMap<DbOrTx, ReturnType<typeof buildFigures>>();

export async function readFigures(db: DbOrTx, input: FigureInput): Promise<FiguresRow> {
  let statement = prepared.get(db);
  if (!statement) {
    statement = buildFigures(db);
    prepared.set(db, statement);
  }
  const [row] = await statement.execute({
    starts: iso(input.starts),
    ends: iso(input.ends),
    days: arrayLiteral(input.lastDays),
    periodEnd: input.periodEnd.toISOString(),
    teamIds: arrayLiteral(input.teamIds),
    projectId: input.projectId,
    userId: input.userId,
    ...ssoLockValues(input.userId),
  });
  return row as FiguresRow;
}

/** A status of the project, deleted ones included (their rows are kept, decision 0024). */
export interface FlowStatusRow {
  key: string;
  name: string;
  category: StatusCategory;
  color: string;
  position: number | null;
  deleted: boolean;
}

/** The project's statuses, live ones in workflow order first, then the deleted ones. */
export function listFlowStatuses(db: DbOrTx, projectId: string): Promise<FlowStatusRow[]> {
  return db
    .select({
      key: projectStatuses.key,
      name: projectStatuses.name,
      category: projectStatuses.category,
      color: projectStatuses.color,
      position: projectStatuses.position,
      deleted: sql<boolean>`${projectStatuses.deletedAt} is not null`,
    })
    .from(projectStatuses)
    .where(eq(projectStatuses.projectId, projectId))
    .orderBy(sql`${projectStatuses.position} nulls last`, asc(projectStatuses.name));
}

/**
 * The cumulative flow's changes: per status key, how many of the project's status spans begin to cover a day's end at
 * day `k` (1-based, `n` positive) and how many stop covering them after day `k − 1` (`n` negative); the running sum
 * over the days is the tasks in the status at each day's end. A span [from_at, to_at) covers an end E when from_at < E
 * ≤ to_at (the status at the last instant of the day); `width_bucket(x, ends)` counts the ends at or before x. Read
 * from two indexes of migration 0012 over the period alone: the current spans begun before its last end, and the
 * spans ended since its first.
 */
export async function readFlowChanges(
  db: DbOrTx,
  projectId: string,
  ends: readonly Date[],
): Promise<{ status: string; k: number; n: number }[]> {
  const s = taskStatusSpans;
  const result = await db.execute(sql`
    with b as (select ${iso([...ends])}::timestamptz[] as ends, ${ends.length}::int as n),
    sp as (
      select sp.status, sp.from_at, sp.to_at from b, ${s} sp
      where sp.project_id = ${projectId} and sp.to_at is null and sp.from_at < b.ends[b.n]
      union all
      select sp.status, sp.from_at, sp.to_at from b, ${s} sp
      where sp.project_id = ${projectId} and sp.to_at is not null and sp.to_at >= b.ends[1] and sp.from_at < b.ends[b.n]
    ),
    r as (
      select sp.status, width_bucket(sp.from_at, b.ends) + 1 as lo,
        coalesce(width_bucket(sp.to_at, b.ends), b.n) as hi, b.n
      from b, sp
    )
    select status, lo as k, count(*)::int as n from r where lo <= hi group by 1, 2
    union all
    select status, hi + 1, -count(*)::int from r where lo <= hi and hi < n group by 1, 2`);
  return (result as unknown as { rows: { status: string; k: number; n: number }[] }).rows;
}

/** A custom field by id, when it is a field of one of these teams (issue 38, 'Split by'). */
export async function getFieldInTeams(db: DbOrTx, fieldId: string, teamIds: readonly string[]) {
  if (teamIds.length === 0) return undefined;
  const [row] = await db
    .select({
      id: customFields.id,
      teamId: customFields.teamId,
      name: customFields.name,
      type: customFields.type,
      options: customFields.options,
    })
    .from(customFields)
    .where(and(eq(customFields.id, fieldId), inArray(customFields.teamId, [...teamIds])));
  return row;
}

export interface SplitRow {
  /** 1-based week (as width_bucket gives it). */
  wk: number;
  /** The option the completed tasks have now, null for none. */
  option: string | null;
  /** Completions (throughput). */
  n: number;
  /** Completions with a cycle time, their median and 85th percentile in hours. */
  cycle: number;
  med: number | null;
  p85: number | null;
}

/**
 * The period's completions (as the figures' `done` reads them: the current span in the completed category, entered in
 * the period) per week and the option of the Select field `fieldId` each task has now (task_field_values.v_option;
 * null: none), with their cycle times' median and 85th percentile.
 */
export async function readSplit(
  db: DbOrTx,
  input: Pick<FigureInput, 'userId' | 'teamIds' | 'projectId' | 'starts' | 'periodEnd'>,
  fieldId: string,
): Promise<SplitRow[]> {
  const s = taskStatusSpans;
  const v = taskFieldValues;
  const result = await db.execute(sql`
    with b as (select ${iso(input.starts)}::timestamptz[] as starts, ${input.periodEnd.toISOString()}::timestamptz as period_end),
    p as (
      select ${projects.id} as id from ${projects}
      where ${projects.teamId} = any(${arrayLiteral(input.teamIds)}::uuid[])
        and (${input.projectId}::uuid is null or ${projects.id} = ${input.projectId}::uuid)
        and ${seesProject(projects.teamId, projects.id, input.userId)}
    ),
    done as (
      select sp.task_id, width_bucket(sp.entered_at, b.starts) as wk,
        extract(epoch from (sp.entered_at - sp.started_at)) / 3600.0 as hours
      from b, p, ${s} sp
      where sp.project_id = p.id and sp.to_at is null and sp.category = 'completed' and sp.from_at >= b.starts[1]
        and sp.entered_at >= b.starts[1] and sp.entered_at < b.period_end
    )
    select d.wk::int as wk, fv.v_option as option, count(*)::int as n, count(d.hours)::int as cycle,
      percentile_cont(0.5) within group (order by d.hours) as med,
      percentile_cont(0.85) within group (order by d.hours) as p85
    from done d
    left join lateral (
      select ${v.vOption} as v_option from ${v}
      where ${v.taskId} = d.task_id and ${v.fieldId} = ${fieldId}::uuid and ${v.vOption} is not null
      limit 1
    ) fv on true
    group by 1, 2`);
  return (result as unknown as { rows: SplitRow[] }).rows.map((r) => ({
    ...r,
    med: r.med === null ? null : Number(r.med),
    p85: r.p85 === null ? null : Number(r.p85),
  }));
}
