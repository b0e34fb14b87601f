import type { TimeAnalyticsDto, TimeAnalyticsQuery, TimeSplit } from '../../../domain/schemas/analytics';
import type { Db } from '../../db/client';
import { type AnalyticsCaller, openScope } from './analytics.service';
import * as repo from './time-analytics.repo';

/** The series of the time of members the caller may not name (decision 0027: only owners and admins read others'). */
export const OTHER_MEMBERS = 'Other members';
/** Ratios as the API gives them: two decimals. */
const roundRatio = (ratio: number): number => Math.round(ratio * 100) / 100;

/**
 * One split of the logged minutes: its series the largest first (by name on a tie), the unnamed ones last, and each
 * week's minutes per series in that order, zeros included.
 */
function split(rows: { k: number; id: string | null; name: string; minutes: number }[], weeks: string[]): TimeSplit {
  const totals = new Map<string | null, { name: string; total: number }>();
  for (const r of rows) {
    const s = totals.get(r.id) ?? { name: r.name, total: 0 };
    s.total += r.minutes;
    totals.set(r.id, s);
  }
  const series = [...totals]
    .map(([id, s]) => ({ id, ...s }))
    .sort((a, b) => Number(a.id === null) - Number(b.id === null) || b.total - a.total || a.name.localeCompare(b.name));
  const index = new Map(series.map((s, i) => [s.id, i]));
  const minutes = weeks.map(() => new Array<number>(series.length).fill(0));
  for (const r of rows) {
    const week = minutes[r.k];
    if (week) week[index.get(r.id)!]! += r.minutes;
  }
  return {
    series: series.map(({ id, name }) => ({ id, name })),
    weeks: weeks.map((week, i) => ({ week, minutes: minutes[i]! })),
  };
}

/**
 * 'Time logged' and 'Estimate vs actual' (issue 39) over the Analytics page's scope and period (`openScope`: 404 for a
 * team or project not of the caller's active teams, as GET /api/analytics).
 */
export async function timeAnalytics(
  db: Db,
  caller: AnalyticsCaller,
  query: TimeAnalyticsQuery,
  now: Date = new Date(),
): Promise<TimeAnalyticsDto> {
  const { period, scope, windows, answer } = await openScope(db, caller, query, now);
  const input = { userId: caller.userId, teamIds: scope.teamIds, projectId: query.projectId ?? null };
  const [logged, estimates] = scope.teamIds.length
    ? await Promise.all([
        repo.readLogged(db, { ...input, from: period.from, to: period.to }),
        repo.readEstimates(db, { ...input, start: windows[0]!.startAt, end: windows[windows.length - 1]!.fullEndAt }),
      ])
    : [[], null];

  return {
    scope: answer,
    logged: {
      totalMinutes: logged.reduce((n, r) => n + r.minutes, 0),
      byPerson: split(
        logged.map((r) => ({ k: r.k, id: r.userId, name: r.userId ? (r.userName ?? '') : OTHER_MEMBERS, minutes: r.minutes })),
        period.weeks,
      ),
      byProject: split(
        logged.map((r) => ({ k: r.k, id: r.projectId, name: r.projectName, minutes: r.minutes })),
        period.weeks,
      ),
    },
    estimates: {
      count: estimates?.count ?? 0,
      medianRatio: estimates?.median == null ? null : roundRatio(Number(estimates.median)),
      overCount: estimates?.overCount ?? 0,
      estimateMinutes: estimates?.estimateMinutes ?? 0,
      actualMinutes: estimates?.actualMinutes ?? 0,
      tasks: (estimates?.tasks ?? []).map(([taskId, title, projectId, projectName, completedAt, estimate, actual]) => ({
        taskId,
        title,
        projectId,
        projectName,
        completedAt: new Date(completedAt).toISOString(),
        estimateMinutes: estimate,
        actualMinutes: actual,
        ratio: roundRatio(actual / estimate),
      })),
    },
  };
}
