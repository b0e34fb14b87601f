/**
 * Pure rules of the dashboard (spec §2 'Dashboard', §4 'Activity feed', §9). The server counts in
 * SQL and fetches only a few candidate rows; these functions decide what the panels show.
 */
import { LIMITS } from './constants';
import { isOverdue } from './dates';
import { MSG } from './messages';
import type { ActivityItem, DashboardDto } from './schemas/dashboard';
import { isClosed, type StatusCategory } from './workflow';

/** Every dashboard list shows at most this many items (spec §9 'Dashboard lists'). */
export const DASHBOARD_LIST_LIMIT = LIMITS.dashboardList;

export const DASHBOARD_TEXT = {
  greeting: MSG.welcomeBack,
  subtitle: "Here's what's happening with your team today.",
  recentActivity: 'Recent Activity',
  projectProgress: 'Project Progress',
  upcomingDeadlines: 'Upcoming Deadlines',
  teamPerformance: 'Team Performance',
  tasksCompleted: 'Tasks Completed',
  totalTasks: 'Total Tasks',
  completionRate: 'Completion Rate',
  activeTeams: 'Active Teams',
} as const;

type StatKey = 'completedTasks' | 'activeProjects' | 'teamMembers' | 'tasksInProgress';
type TrendKey = keyof DashboardDto['trends'];

/**
 * The four stat cards, in order. The first three show their month-over-month change (`trend`, worded by
 * trendLabel); Tasks in Progress has none. The spec's fixed '12%, 8%, 3% vs last month' were placeholders
 * (DESIGN.md §2).
 */
export const STAT_CARDS: readonly { key: StatKey; label: string; trend?: TrendKey }[] = [
  { key: 'completedTasks', label: 'Completed Tasks', trend: 'completedTasks' },
  { key: 'activeProjects', label: 'Active Projects', trend: 'activeProjects' },
  { key: 'teamMembers', label: 'Team Members', trend: 'teamMembers' },
  { key: 'tasksInProgress', label: 'Tasks in Progress' },
];

export const TREND_TEXT = { noChange: 'No change', newThisMonth: 'New this month' } as const;

/**
 * A card's change from last month to this one: 'No change' when both are 0, 'New this month' when only this month
 * has any; otherwise the change in whole percent of last month's figure, halves away from zero (a rise and a fall
 * of 2.5% read alike): '+n% vs last month', '−n% vs last month' (a true minus sign), or 'No change' when it rounds
 * to 0.
 */
export function trendLabel({ current, previous }: { current: number; previous: number }): string {
  if (previous === 0) return current === 0 ? TREND_TEXT.noChange : TREND_TEXT.newThisMonth;
  const change = ((current - previous) / previous) * 100;
  const n = Math.round(Math.abs(change));
  if (n === 0) return TREND_TEXT.noChange;
  return change > 0 ? `+${n}% vs last month` : `\u2212${n}% vs last month`;
}

/** Which way a trend went, for its colour: up (more, or new this month), down, or flat ('No change'). */
export function trendDirection({ current, previous }: { current: number; previous: number }): 'up' | 'down' | 'flat' {
  const label = trendLabel({ current, previous });
  if (label === TREND_TEXT.noChange) return 'flat';
  return current > previous ? 'up' : 'down';
}

/** Rounded percent of completed over total tasks; 0 when there are none (spec §9). */
export function completionRate(completed: number, total: number): number {
  if (total <= 0) return 0;
  return Math.round((100 * completed) / total);
}

export type ActivityEntity = ActivityItem['entity'];
export type ActivityAction = ActivityItem['action'];

/**
 * A task in a completed status is 'completed', any other task 'updated'; projects and teams 'created' (spec §4). By the
 * status's category, whatever its project calls it (decision 0024).
 */
export function activityAction(entity: ActivityEntity, category?: StatusCategory): ActivityAction {
  if (entity !== 'task') return 'created';
  return category === 'completed' ? 'completed' : 'updated';
}

export interface ActivityCandidate {
  id: string;
  entity: ActivityEntity;
  title: string;
  /** Tasks only: the category of the task's status. */
  category?: StatusCategory;
  /** updated_at for tasks, created_at for projects and teams. */
  at: Date;
}

/** The newest items first, at most five, each with its action. Ids are prefixed so they stay unique. */
export function recentActivity(candidates: readonly ActivityCandidate[]): ActivityItem[] {
  return [...candidates]
    .sort((a, b) => b.at.getTime() - a.at.getTime())
    .slice(0, DASHBOARD_LIST_LIMIT)
    .map((c) => ({
      id: `${c.entity}:${c.id}`,
      entity: c.entity,
      action: activityAction(c.entity, c.category),
      title: c.title,
      at: c.at.toISOString(),
    }));
}

type Deadline = Omit<DashboardDto['upcomingDeadlines'][number], 'isOverdue'>;

/**
 * Open tasks (neither completed nor canceled) with a due date, soonest first (overdue ones included, flagged), at most five.
 * Ties keep their given order.
 */
export function upcomingDeadlines<
  T extends Omit<Deadline, 'dueDate'> & { dueDate: string | null; statusCategory: StatusCategory },
>(tasks: readonly T[], today: string): (T & { dueDate: string; isOverdue: boolean })[] {
  return tasks
    .filter((t): t is T & { dueDate: string } => !isClosed(t.statusCategory) && t.dueDate !== null)
    .map((t, i) => ({ t, i }))
    .sort((a, b) => (a.t.dueDate < b.t.dueDate ? -1 : a.t.dueDate > b.t.dueDate ? 1 : a.i - b.i))
    .slice(0, DASHBOARD_LIST_LIMIT)
    .map(({ t }) => ({ ...t, isOverdue: isOverdue(t.dueDate, today) }));
}

/** The first five projects, in the order given (the projects list's order: newest first). */
export function firstProjects<T>(projects: readonly T[]): T[] {
  return projects.slice(0, DASHBOARD_LIST_LIMIT);
}
