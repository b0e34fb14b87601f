import { z } from 'zod';
import { PROJECT_STATUSES, TASK_PRIORITIES } from '../constants';
import { statusKey } from './workflow';
import { intFields, isoDate, isoDateTime, uuid } from './common';

export const activityItem = z.object({
  id: z.string(),
  entity: z.enum(['task', 'project', 'team']),
  action: z.enum(['completed', 'updated', 'created']),
  title: z.string(),
  at: isoDateTime,
});
export type ActivityItem = z.infer<typeof activityItem>;

export const dashboardQuery = z.object({
  /** The caller's local calendar date, for the overdue flags; the server's UTC date when absent. */
  today: isoDate.optional(),
});
export type DashboardQuery = z.infer<typeof dashboardQuery>;

export const dashboardDto = z.object({
  stats: intFields(
    'completedTasks',
    'activeProjects',
    'teamMembers',
    'tasksInProgress',
    'totalTasks',
    'completionRate',
    'activeTeams',
  ),
  /**
   * Month over month, from the history (issue 24): this calendar month's figure so far and last month's, per card.
   * The client words them ('+N% vs last month', 'No change', 'New this month'; domain/dashboard.ts).
   */
  trends: z.object({
    completedTasks: z.object({ current: z.number().int(), previous: z.number().int() }),
    activeProjects: z.object({ current: z.number().int(), previous: z.number().int() }),
    teamMembers: z.object({ current: z.number().int(), previous: z.number().int() }),
  }),
  recentActivity: z.array(activityItem),
  projectProgress: z.array(
    z.object({ id: uuid, name: z.string(), progress: z.number().int(), status: z.enum(PROJECT_STATUSES) }),
  ),
  upcomingDeadlines: z.array(
    z.object({
      id: uuid,
      title: z.string(),
      dueDate: isoDate,
      priority: z.enum(TASK_PRIORITIES),
      status: statusKey,
      projectId: uuid,
      projectName: z.string(),
      /** Past and not today, seen from the caller's `today`. */
      isOverdue: z.boolean(),
    }),
  ),
});
export type DashboardDto = z.infer<typeof dashboardDto>;
