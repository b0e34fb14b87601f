import { localDateIn, monthStarts, startOfLocalDay } from '../../../domain/analytics';
import { completionRate, firstProjects, recentActivity, upcomingDeadlines } from '../../../domain/dashboard';
import type { DashboardDto } from '../../../domain/schemas/dashboard';
import { zoneOrUtc } from '../../../domain/schemas/time-zone';
import type { Db } from '../../db/client';
import * as repo from './dashboard.repo';

export class DashboardService {
  constructor(private readonly db: Db) {}

  /**
   * The caller's dashboard over the teams they are an active member of. The database counts and
   * returns only a few candidate rows per panel; the domain rules pick what is shown. One read-only
   * snapshot, so the figures and lists agree with each other.
   */
  async get(userId: string, today: string, timeZone: string | null = null, now: Date = new Date()): Promise<DashboardDto> {
    // The trends' months are the caller's calendar months, in their profile's zone (UTC when unset).
    const zone = zoneOrUtc(timeZone);
    const month = monthStarts(localDateIn(now, zone));
    const months = {
      current: startOfLocalDay(month.current, zone),
      previous: startOfLocalDay(month.previous, zone),
      currentDay: month.current,
      previousDay: month.previous,
    };
    return this.db.transaction(
      async (tx) => {
        const { trends, ...counts } = await repo.countForUser(tx, userId, months);
        const activity = await repo.listActivityCandidates(tx, userId);
        const projects = await repo.listFirstProjects(tx, userId);
        const deadlines = await repo.listNextDeadlines(tx, userId);
        return {
          stats: { ...counts, completionRate: completionRate(counts.completedTasks, counts.totalTasks) },
          trends,
          recentActivity: recentActivity(activity),
          projectProgress: firstProjects(projects),
          upcomingDeadlines: upcomingDeadlines(deadlines, today),
        };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  }
}
