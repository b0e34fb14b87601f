import { CheckCircle2, Clock, FolderKanban, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { DASHBOARD_TEXT, STAT_CARDS, trendDirection, trendLabel } from '../../../../domain/dashboard';
import { localIsoDate } from '../../../../domain/dates';
import { MSG } from '../../../../domain/messages';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { StatCard } from '../../../components/ui/stat-card';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useDashboard } from '../api/get-dashboard';
import { useNow } from '../hooks/use-now';
import { ProjectProgress } from './project-progress';
import { RecentActivity } from './recent-activity';
import { TeamPerformance } from './team-performance';
import { UpcomingDeadlines } from './upcoming-deadlines';

const STAT_ICONS = {
  completedTasks: <CheckCircle2 className="h-5 w-5" />,
  activeProjects: <FolderKanban className="h-5 w-5" />,
  teamMembers: <Users className="h-5 w-5" />,
  tasksInProgress: <Clock className="h-5 w-5" />,
} as const;

/** The dashboard. `top` is the invitation panel, composed in by the route. */
export function DashboardPage({ top }: { top?: ReactNode }) {
  useDocumentTitle('Dashboard');
  const now = useNow();
  const today = localIsoDate(now);
  const { data, isPending, isError, refetch, isRefetching } = useDashboard(today);

  return (
    <div className="space-y-6">
      <PageHeader title={DASHBOARD_TEXT.greeting} subtitle={DASHBOARD_TEXT.subtitle} />
      {top}
      {isPending ? (
        <Spinner label={MSG.loadingDashboard} className="py-16" />
      ) : isError ? (
        <Card className="flex flex-col items-center gap-3 px-6 py-10 text-center">
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
            {MSG.loadFailed}
          </p>
          <Button variant="secondary" onClick={() => void refetch()} isLoading={isRefetching}>
            Retry
          </Button>
        </Card>
      ) : (
        <>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
            {STAT_CARDS.map((card) => (
              <div key={card.key} role="group" aria-label={card.label} className="[&>*]:h-full">
                <StatCard
                  label={card.label}
                  value={data.stats[card.key]}
                  icon={STAT_ICONS[card.key]}
                  change={card.trend && trendLabel(data.trends[card.trend])}
                  changeTone={card.trend && trendDirection(data.trends[card.trend])}
                />
              </div>
            ))}
          </div>
          <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
            <RecentActivity items={data.recentActivity} now={now} />
            <UpcomingDeadlines items={data.upcomingDeadlines} today={today} />
            <ProjectProgress projects={data.projectProgress} />
            <TeamPerformance stats={data.stats} />
          </div>
        </>
      )}
    </div>
  );
}
