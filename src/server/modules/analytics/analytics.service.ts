import {
  CYCLE_TIME_BUCKETS,
  localDateIn,
  OPEN_TASK_STATUSES,
  resolvePeriod,
  roundHours,
  weekWindows,
  wholeDaysSince,
} from '../../../domain/analytics';
import type { AnalyticsDto, AnalyticsQuery } from '../../../domain/schemas/analytics';
import { zoneOrUtc } from '../../../domain/schemas/time-zone';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import * as repo from './analytics.repo';

export interface AnalyticsCaller {
  userId: string;
  /** The caller's profile time zone; UTC when unset (or unknown to this engine). */
  timeZone: string | null;
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
    const timeZone = zoneOrUtc(caller.timeZone);
    const today = localDateIn(now, timeZone);
    const period = resolvePeriod(query, today);
    const scope = await repo.resolveScope(this.db, caller.userId, query.teamId, query.projectId);
    if (query.teamId && scope.teamIds.length === 0) throw new AppError('team_not_found');
    if (query.projectId && !scope.projectTeamId) throw new AppError('project_not_found');

    const windows = weekWindows(period.weeks, timeZone, now, today);
    const figures = scope.teamIds.length
      ? await repo.readFigures(this.preparedDb, {
          teamIds: scope.teamIds,
          projectId: query.projectId ?? null,
          starts: windows.map((w) => w.startAt),
          ends: windows.map((w) => w.endAt),
          lastDays: windows.map((w) => w.lastDay),
          periodEnd: windows[windows.length - 1]!.fullEndAt,
        })
      : null;

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
      scope: {
        teamIds: scope.teamIds,
        projectId: query.projectId ?? null,
        from: period.from,
        to: period.to,
        timeZone,
        weeks: period.weeks,
      },
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
      wip: OPEN_TASK_STATUSES.map((status) => ({ status, count: Number(figures?.wip[status] ?? 0) })),
      ageing: (figures?.ageing ?? []).map(([taskId, title, status, projectId, projectName, since]) => {
        const at = new Date(since);
        return { taskId, title, status, projectId, projectName, since: at.toISOString(), days: wholeDaysSince(at, now) };
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
    };
  }
}
