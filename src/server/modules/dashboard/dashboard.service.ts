import { completionRate, firstProjects, recentActivity, upcomingDeadlines } from '../../../domain/dashboard';
import type { DashboardDto } from '../../../domain/schemas/dashboard';
import type { Db } from '../../db/client';
import * as repo from './dashboard.repo';

export class DashboardService {
  constructor(private readonly db: Db) {}

  /**
   * The caller's dashboard over the teams they are an active member of. The database counts and
   * returns only a few candidate rows per panel; the domain rules pick what is shown. One read-only
   * snapshot, so the figures and lists agree with each other.
   */
  async get(userId: string, today: string): Promise<DashboardDto> {
    return this.db.transaction(
      async (tx) => {
        const counts = await repo.countForUser(tx, userId);
        const activity = await repo.listActivityCandidates(tx, userId);
        const projects = await repo.listFirstProjects(tx, userId);
        const deadlines = await repo.listNextDeadlines(tx, userId);
        return {
          stats: { ...counts, completionRate: completionRate(counts.completedTasks, counts.totalTasks) },
          // Placeholder while issue 24's trends are built (the analytics helper replaces it with repo.monthTrends).
          trends: {
            completedTasks: { current: 0, previous: 0 },
            activeProjects: { current: 0, previous: 0 },
            teamMembers: { current: 0, previous: 0 },
          },
          recentActivity: recentActivity(activity),
          projectProgress: firstProjects(projects),
          upcomingDeadlines: upcomingDeadlines(deadlines, today),
        };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  }
}
