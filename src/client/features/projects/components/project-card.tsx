import { Calendar, ListChecks, Pencil, Settings, Users } from 'lucide-react';
import { Link } from 'react-router';
import { canEditProject } from '../../../../domain/permissions';
import { WORKFLOW_TEXT } from '../../../../domain/workflow';
import { isProjectOverdue } from '../../../../domain/projects';
import type { ProjectDto } from '../../../../domain/schemas/project';
import { Card } from '../../../components/ui/card';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { cn } from '../../../lib/cn';
import { projectSettingsPath, projectTasksPath } from '../../../lib/paths';
import { formatProjectDate } from './format';
import { ProjectStatusBadge, ProjectStatusIcon } from './project-status';

export interface ProjectCardProps {
  project: ProjectDto;
  today: string;
  onEdit: (project: ProjectDto) => void;
}

const cardAction =
  'relative z-10 rounded-md p-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white';

/** A grid card; a click anywhere on it opens the project's tasks (the name is a stretched link). */
export function ProjectCard({ project, today, onEdit }: ProjectCardProps) {
  const overdue = isProjectOverdue(project.endDate, project.status, today);
  const members = project.teamMemberCount;
  return (
    <Card className="relative flex h-full flex-col gap-3 p-4 transition-shadow hover:shadow-md focus-within:ring-2 focus-within:ring-brand-600 dark:focus-within:ring-indigo-400">
      <div className="flex items-start justify-between gap-2">
        <h3 className="flex min-w-0 items-center gap-2 text-base font-semibold">
          <ProjectStatusIcon status={project.status} />
          <Link
            to={projectTasksPath(project.id)}
            className="truncate after:absolute after:inset-0 after:rounded-xl after:content-[''] focus-visible:outline-none"
          >
            {project.name}
          </Link>
        </h3>
        <div className="flex shrink-0 items-center">
          {/* Every member sees the settings (plain members read the workflow there); editors also edit here. */}
          <Link
            to={projectSettingsPath(project.id)}
            aria-label={`${WORKFLOW_TEXT.projectSettings}: ${project.name}`}
            title={WORKFLOW_TEXT.projectSettings}
            className={cardAction}
          >
            <Settings className="h-4 w-4" aria-hidden />
          </Link>
          {canEditProject(project.myRole) && (
            <button type="button" aria-label={`Edit ${project.name}`} onClick={() => onEdit(project)} className={cardAction}>
              <Pencil className="h-4 w-4" aria-hidden />
            </button>
          )}
        </div>
      </div>
      {project.description && <p className="line-clamp-2 text-sm text-slate-600 dark:text-slate-300">{project.description}</p>}
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <ProjectStatusBadge status={project.status} />
        <span className="flex items-center gap-1 text-slate-600 dark:text-slate-300">
          <Users className="h-4 w-4" aria-hidden />
          <span>
            {project.teamName} · {members} {members === 1 ? 'member' : 'members'}
          </span>
        </span>
      </div>
      <div className="space-y-1">
        <div className="flex justify-between text-xs text-slate-600 dark:text-slate-300">
          <span>Progress</span>
          <span>{project.progress}%</span>
        </div>
        <ProgressBar value={project.progress} label={`${project.name} progress`} />
      </div>
      <div className="mt-auto flex flex-wrap items-center justify-between gap-x-3 gap-y-1 text-xs text-slate-600 dark:text-slate-300">
        {project.startDate && (
          <span className="flex items-center gap-1">
            <Calendar className="h-3.5 w-3.5" aria-hidden />
            Start {formatProjectDate(project.startDate)}
          </span>
        )}
        <span className="flex items-center gap-1">
          <ListChecks className="h-3.5 w-3.5" aria-hidden />
          {project.taskCount} {project.taskCount === 1 ? 'task' : 'tasks'}
        </span>
        {project.endDate && (
          <span className={cn(overdue && 'font-semibold text-red-700 dark:text-red-400')} data-overdue={overdue || undefined}>
            Due {formatProjectDate(project.endDate)}
          </span>
        )}
      </div>
    </Card>
  );
}
