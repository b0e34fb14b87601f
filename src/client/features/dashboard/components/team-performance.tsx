import { TrendingUp } from 'lucide-react';
import { DASHBOARD_TEXT } from '../../../../domain/dashboard';
import { MSG } from '../../../../domain/messages';
import type { DashboardDto } from '../../../../domain/schemas/dashboard';
import { DefinitionList } from '../../../components/ui/definition-list';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { Panel } from './panel';

export function TeamPerformance({ stats }: { stats: DashboardDto['stats'] }) {
  const rows = [
    [DASHBOARD_TEXT.tasksCompleted, String(stats.completedTasks)],
    [DASHBOARD_TEXT.totalTasks, String(stats.totalTasks)],
    [DASHBOARD_TEXT.completionRate, `${stats.completionRate}%`],
    [DASHBOARD_TEXT.activeTeams, String(stats.activeTeams)],
  ] as const;
  return (
    <Panel id="performance" title={DASHBOARD_TEXT.teamPerformance} icon={<TrendingUp className="h-5 w-5" />}>
      <DefinitionList items={rows} />
      <div className="mt-4">
        <ProgressBar value={stats.completionRate} label={DASHBOARD_TEXT.completionRate} />
      </div>
      {stats.totalTasks === 0 && <p className="mt-4 text-center text-sm text-slate-600 dark:text-slate-300">{MSG.noTasksYet}</p>}
    </Panel>
  );
}
