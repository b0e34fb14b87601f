import { isProjectOverdue } from '../../../../domain/projects';
import type { ProjectDto } from '../../../../domain/schemas/project';
import { ClickableRow, RowOpenButton } from '../../../components/ui/clickable-row';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { cn } from '../../../lib/cn';
import { formatProjectDate } from './format';
import { ProjectStatusBadge, ProjectStatusIcon } from './project-status';

export interface ProjectTableProps {
  projects: ProjectDto[];
  today: string;
  onOpen: (project: ProjectDto) => void;
}

const th = 'px-4 py-3 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-300';

/** The list view; a row click opens the project's edit modal. */
export function ProjectTable({ projects, today, onOpen }: ProjectTableProps) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <table className="min-w-[40rem] w-full divide-y divide-slate-200 text-sm dark:divide-slate-700">
        <thead className="bg-slate-50 dark:bg-slate-800/60">
          <tr>
            <th scope="col" className={th}>
              Project
            </th>
            <th scope="col" className={th}>
              Status
            </th>
            <th scope="col" className={th}>
              Progress
            </th>
            <th scope="col" className={th}>
              Due Date
            </th>
            <th scope="col" className={th}>
              Tasks
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
          {projects.map((project) => {
            const overdue = isProjectOverdue(project.endDate, project.status, today);
            return (
              <ClickableRow key={project.id} onOpen={() => onOpen(project)}>
                <td className="px-4 py-3">
                  <div className="flex items-center gap-2">
                    <ProjectStatusIcon status={project.status} className="h-4 w-4" />
                    <div className="min-w-0">
                      <RowOpenButton onOpen={() => onOpen(project)} className="truncate">
                        {project.name}
                      </RowOpenButton>
                      <p className="truncate text-xs text-slate-600 dark:text-slate-400">{project.teamName}</p>
                    </div>
                  </div>
                </td>
                <td className="px-4 py-3">
                  <ProjectStatusBadge status={project.status} />
                </td>
                <td className="px-4 py-3">
                  <div className="flex items-center gap-2">
                    <div className="w-24">
                      <ProgressBar value={project.progress} label={`${project.name} progress`} />
                    </div>
                    <span className="text-xs text-slate-600 dark:text-slate-300">{project.progress}%</span>
                  </div>
                </td>
                <td
                  className={cn(
                    'px-4 py-3 whitespace-nowrap',
                    overdue ? 'font-semibold text-red-700 dark:text-red-400' : 'text-slate-700 dark:text-slate-200',
                  )}
                >
                  {project.endDate ? formatProjectDate(project.endDate) : 'No due date'}
                </td>
                <td className="px-4 py-3 text-slate-700 dark:text-slate-200">{project.taskCount}</td>
              </ClickableRow>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
