import {
  CYCLE_TIME_BUCKETS,
  localDateIn,
  resolvePeriod,
  roundHours,
  startOfLocalDay,
  weekWindows,
  wholeDaysSince,
} from '../../../domain/analytics';
import { addDays, daysBetween } from '../../../domain/dates';
import type { AnalyticsDto, AnalyticsQuery, CumulativeFlowDto, CumulativeFlowQuery } from '../../../domain/schemas/analytics';
import { boardColumns, isClosed, STATUS_CATEGORIES, type WorkflowStatus } from '../../../domain/workflow';
import { zoneOrUtc } from '../../../domain/schemas/time-zone';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import * as repo from './analytics.repo';

/** The 'Split by' series of the tasks without a value, and the 400s' texts (issue 38). */
export const NO_VALUE = 'No value';
const NO_VALUE_COLOR = '#94a3b8';
const SPLIT_TEXT = {
  otherTeam: 'Split by a field of the team the analytics show',
  notSelect: 'Split by a Select field',
} as const;

/**
 * The 'Work in progress' chart's bars: the open columns of the board the scope's workflows give (`boardColumns`: one
 * project's statuses, the default four's, or the categories in use), each with its open tasks now.
 */
function workInProgress(rows: NonNullable<repo.FiguresRow['wip']>): AnalyticsDto['wip'] {
  const workflows = new Map<string, WorkflowStatus[]>();
  const byKey = new Map<string, number>();
  const byCategory = new Map<string, number>();
  for (const [projectId, key, name, category, color, position, n] of rows) {
    let workflow = workflows.get(projectId);
    if (!workflow) {
      workflow = [];
      workflows.set(projectId, workflow);
    }
    workflow.push({ id: key, key, name, category, color, position, wipLimit: null });
    byKey.set(key, (byKey.get(key) ?? 0) + n);
    byCategory.set(category, (byCategory.get(category) ?? 0) + n);
  }
  return boardColumns([...workflows.values()])
    .filter((column) => !isClosed(column.category))
    .map((column) =>
      column.kind === 'status'
        ? { kind: 'status', key: column.key, name: column.name, color: column.color, count: byKey.get(column.key) ?? 0 }
        : {
            kind: 'category',
            key: column.category,
            name: column.name,
            color: column.color,
            count: byCategory.get(column.category) ?? 0,
          },
    );
}

export interface AnalyticsCaller {
  userId: string;
  /** The caller's profile time zone; UTC when unset (or unknown to this engine). */
  timeZone: string | null;
}

/**
 * What a query of the page covers: its period and weeks in the caller's time zone, and its teams (404 team_not_found
 * or project_not_found for a team or project not of the caller's active teams); `answer` is the answer's `scope`.
 * GET /api/analytics and GET /api/analytics/time (issue 39) share it.
 */
export async function openScope(
  db: Db,
  caller: AnalyticsCaller,
  query: Pick<AnalyticsQuery, 'teamId' | 'projectId' | 'weeks' | 'from' | 'to'>,
  now: Date,
) {
  const timeZone = zoneOrUtc(caller.timeZone);
  const today = localDateIn(now, timeZone);
  const period = resolvePeriod(query, today);
  const scope = await repo.resolveScope(db, caller.userId, query.teamId, query.projectId);
  if (query.teamId && scope.teamIds.length === 0) throw new AppError('team_not_found');
  if (query.projectId && !scope.projectTeamId) throw new AppError('project_not_found');
  const windows = weekWindows(period.weeks, timeZone, now, today);
  const answer: AnalyticsDto['scope'] = {
    teamIds: scope.teamIds,
    projectId: query.projectId ?? null,
    from: period.from,
    to: period.to,
    timeZone,
    weeks: period.weeks,
  };
  return { period, scope, windows, answer };
}

/**
 * The Analytics page's figures (issue 24, decision 0018) over the teams the caller is an active member of: one team
 * (404 team_not_found unless they are a member), one project (404 project_not_found unless it is in one of those
 * teams), or all of their teams. Weeks run Monday to Sunday in the caller's time zone.
 */
export class AnalyticsService {
  /** `preparedDb` runs the figures' prepared statement (Database.preparedDb: planned once per connection). */
  constructor(
    private readonly db: Db,
    private readonly preparedDb: Db = db,
  ) {}

  async get(caller: AnalyticsCaller, query: AnalyticsQuery, now: Date = new Date()): Promise<AnalyticsDto> {
    const { period, scope, windows, answer } = await openScope(this.db, caller, query, now);
    const figures = scope.teamIds.length
      ? await repo.readFigures(this.preparedDb, {
          userId: caller.userId,
          teamIds: scope.teamIds,
          projectId: query.projectId ?? null,
          starts: windows.map((w) => w.startAt),
          ends: windows.map((w) => w.endAt),
          lastDays: windows.map((w) => w.lastDay),
          periodEnd: windows[windows.length - 1]!.fullEndAt,
        })
      : null;

    const split = query.splitBy ? await this.split(caller.userId, query, scope, windows, period.weeks) : undefined;

    const byWeek = (pairs: [number, number][] | null | undefined, base: number) => {
      const map = new Map((pairs ?? []).map(([k, n]) => [k - base, n]));
      return period.weeks.map((_, i) => map.get(i) ?? 0);
    };
    const throughput = byWeek(figures?.throughput, 1);
    const cycle = new Map((figures?.cycle ?? []).map(([k, count, median, p85]) => [k - 1, { count, median, p85 }]));
    const distribution = new Map(figures?.distribution ?? []);
    const burnup = new Map<string, AnalyticsDto['burnup'][number]>();
    for (const [projectId, projectName, k, scopeCount, completed] of figures?.burnup ?? []) {
      let entry = burnup.get(projectId);
      if (!entry) {
        entry = { projectId, projectName, points: [] };
        burnup.set(projectId, entry);
      }
      entry.points.push({ week: period.weeks[k]!, scope: scopeCount, completed });
    }
    const overdue = byWeek(figures?.overdue, 0);

    return {
      scope: answer,
      throughput: period.weeks.map((week, i) => ({ week, completed: throughput[i]! })),
      cycleTime: {
        weeks: period.weeks.map((week, i) => {
          const c = cycle.get(i);
          return c
            ? { week, count: c.count, medianHours: roundHours(c.median), p85Hours: roundHours(c.p85) }
            : { week, count: 0, medianHours: null, p85Hours: null };
        }),
        distribution: CYCLE_TIME_BUCKETS.map((b, i) => ({ ...b, count: distribution.get(i) ?? 0 })),
      },
      burnup: [...burnup.values()],
      wip: workInProgress(figures?.wip ?? []),
      ageing: (figures?.ageing ?? []).map(([taskId, title, status, projectId, projectName, since, statusName]) => {
        const at = new Date(since);
        return {
          taskId,
          title,
          status,
          statusName,
          projectId,
          projectName,
          since: at.toISOString(),
          days: wholeDaysSince(at, now),
        };
      }),
      workload: (figures?.workload ?? []).map(([assigneeId, name, low, medium, high, urgent, total]) => ({
        assigneeId,
        name: assigneeId ? name : null,
        low,
        medium,
        high,
        urgent,
        total,
      })),
      overdue: period.weeks.map((week, i) => ({ week, count: overdue[i]! })),
      ...(split ? { split } : {}),
    };
  }

  /**
   * Throughput and cycle time per option of a Select field (issue 38, 'Split by'). The field must be one of the
   * caller's teams' (404 custom_field_not_found otherwise, as to a stranger), of the scope (the team asked for, the
   * project's team) and a Select field (400 otherwise).
   */
  private async split(
    userId: string,
    query: AnalyticsQuery,
    scope: repo.ScopeRow,
    windows: ReturnType<typeof weekWindows>,
    weeks: string[],
  ): Promise<NonNullable<AnalyticsDto['split']>> {
    const fieldId = query.splitBy!;
    const all = await repo.resolveScope(this.db, userId, undefined, undefined);
    const field = await repo.getFieldInTeams(this.db, fieldId, all.teamIds);
    if (!field) throw new AppError('custom_field_not_found');
    const teams = scope.projectTeamId ? [scope.projectTeamId] : scope.teamIds;
    if (!teams.includes(field.teamId)) {
      throw new AppError('validation_failed', { fields: { splitBy: SPLIT_TEXT.otherTeam } });
    }
    if (field.type !== 'select') throw new AppError('validation_failed', { fields: { splitBy: SPLIT_TEXT.notSelect } });

    const rows = await repo.readSplit(
      this.db,
      {
        userId,
        teamIds: scope.teamIds,
        projectId: query.projectId ?? null,
        starts: windows.map((w) => w.startAt),
        periodEnd: windows[windows.length - 1]!.fullEndAt,
      },
      fieldId,
    );
    const series = [
      ...field.options.map((o) => ({ optionId: o.id, name: o.name, color: o.color })),
      { optionId: null, name: NO_VALUE, color: NO_VALUE_COLOR },
    ];
    const indexOf = new Map(field.options.map((o, i) => [o.id, i]));
    const none = series.length - 1;
    const throughput = weeks.map(() => new Array<number>(series.length).fill(0));
    const cycle = weeks.map(() =>
      series.map((): { count: number; medianHours: number | null; p85Hours: number | null } => ({
        count: 0,
        medianHours: null,
        p85Hours: null,
      })),
    );
    for (const r of rows) {
      const w = r.wk - 1;
      if (w < 0 || w >= weeks.length) continue;
      // An option no longer the field's counts as no value (removing an option clears it: a race at most).
      const k = r.option !== null && indexOf.has(r.option) ? indexOf.get(r.option)! : none;
      throughput[w]![k]! += r.n;
      if (r.cycle > 0) {
        cycle[w]![k] = { count: r.cycle, medianHours: roundHours(r.med!), p85Hours: roundHours(r.p85!) };
      }
    }
    return {
      fieldId: field.id,
      fieldName: field.name,
      series,
      throughput: weeks.map((week, i) => ({ week, counts: throughput[i]! })),
      cycleTime: weeks.map((week, i) => ({ week, series: cycle[i]! })),
    };
  }

  /**
   * One project's cumulative flow (issue 36): its tasks per status at the end of each day of the period, up to today
   * (now, for today), in the caller's time zone, from the status spans. 404 project_not_found unless the project is in
   * one of the caller's active teams.
   */
  async cumulativeFlow(caller: AnalyticsCaller, query: CumulativeFlowQuery, now: Date = new Date()): Promise<CumulativeFlowDto> {
    const timeZone = zoneOrUtc(caller.timeZone);
    const today = localDateIn(now, timeZone);
    const period = resolvePeriod(query, today);
    const scope = await repo.resolveScope(this.db, caller.userId, undefined, query.projectId);
    if (!scope.projectTeamId) throw new AppError('project_not_found');

    const days = Array.from({ length: daysBetween(period.from, period.to) + 1 }, (_, i) => addDays(period.from, i));
    const ends = days.map((day) => {
      const end = startOfLocalDay(addDays(day, 1), timeZone);
      return end.getTime() < now.getTime() ? end : now;
    });
    const [statuses, changes] = await Promise.all([
      repo.listFlowStatuses(this.db, query.projectId),
      repo.readFlowChanges(this.db, query.projectId, ends),
    ]);
    // The running sums per key; keys the project never had (a moved task's spans from before its move, which name
    // its old project's statuses) are left out. Live statuses in workflow order, then the deleted ones that had tasks.
    const deltas = new Map(statuses.map((st) => [st.key, new Array<number>(days.length).fill(0)]));
    for (const { status, k, n } of changes) {
      const row = deltas.get(status);
      if (row) row[k - 1] = (row[k - 1] ?? 0) + n;
    }
    const series = new Map(
      [...deltas].map(([key, row]) => {
        let total = 0;
        return [
          key,
          row.map((n) => {
            total += n;
            return total;
          }),
        ];
      }),
    );
    const shown = [
      ...statuses.filter((st) => !st.deleted),
      ...statuses
        .filter((st) => st.deleted && series.get(st.key)!.some((n) => n > 0))
        .sort(
          (a, b) => STATUS_CATEGORIES.indexOf(a.category) - STATUS_CATEGORIES.indexOf(b.category) || a.name.localeCompare(b.name),
        ),
    ];
    return {
      scope: { projectId: query.projectId, from: period.from, to: period.to, timeZone },
      statuses: shown.map(({ key, name, category, color, deleted }) => ({ key, name, category, color, deleted })),
      days: days.map((day, i) => ({ day, counts: shown.map((st) => series.get(st.key)![i]!) })),
    };
  }
}
