import { FolderKanban } from 'lucide-react';
import { Link } from 'react-router';
import { DASHBOARD_TEXT } from '../../../../domain/dashboard';
import { MSG } from '../../../../domain/messages';
import type { DashboardDto } from '../../../../domain/schemas/dashboard';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { projectTasksPath } from '../../../lib/paths';
import { ListPanel } from './panel';

export function ProjectProgress({ projects }: { projects: DashboardDto['projectProgress'] }) {
  return (
    <ListPanel
      id="projects"
      title={DASHBOARD_TEXT.projectProgress}
      icon={<FolderKanban className="h-5 w-5" />}
      items={projects}
      empty={MSG.noProjectsYet}
      listClassName="space-y-4"
    >
      {(p) => (
        <li key={p.id} className="space-y-1.5">
          <div className="flex items-center justify-between gap-3 text-sm">
            <Link
              to={projectTasksPath(p.id)}
              className="min-w-0 truncate font-medium hover:underline focus-visible:underline"
              title={p.name}
            >
              {p.name}
            </Link>
            <span className="shrink-0 tabular-nums text-slate-600 dark:text-slate-300">{p.progress}%</span>
          </div>
          <ProgressBar value={p.progress} label={`${p.name} progress`} />
        </li>
      )}
    </ListPanel>
  );
}
