import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, KanbanSquare } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { MSG } from '../../../domain/messages';
import { canEditProject, canManageGuests } from '../../../domain/permissions';
import { WORKFLOW_TEXT } from '../../../domain/workflow';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { PageHeader } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { WorkflowSection } from '../../features/workflows/components/workflow-section';
import { FormsSection } from '../../features/forms/components/forms-section';
import { IntakeSection } from '../../features/intake/components/intake-section';
import { ShareSection } from '../../features/sharing/components/share-section';
import { ProjectGuestsSection } from '../../features/projects/components/project-guests-section';
import { errorText } from '../../lib/errors';
import { projectTasksPath } from '../../lib/paths';
import { projectsQueryOptions } from '../../lib/queries/projects';
import { useDocumentTitle } from '../../lib/use-document-title';

const linkClass = 'inline-flex items-center gap-1 text-sm text-brand-700 hover:underline dark:text-indigo-300';

/**
 * /projects/:id/settings: a project's settings (issue 36), for now its workflow. Every member of its team sees it;
 * those who may edit the project change it (the server checks each request again). The project comes from the
 * projects list, the same cache entry as the projects page, so arriving from there draws at once.
 */
export function ProjectSettingsPage() {
  const { id = '' } = useParams();
  const projects = useQuery(projectsQueryOptions());
  const project = projects.data?.find((p) => p.id === id);
  useDocumentTitle(project ? `${project.name} settings` : WORKFLOW_TEXT.projectSettings);
  if (projects.isPending) return <Spinner label="Loading project..." />;
  if (!project) {
    return (
      <div>
        <PageHeader title={WORKFLOW_TEXT.projectSettings} />
        {projects.isError ? (
          <EmptyState
            title={MSG.loadFailed}
            message={errorText(projects.error, '')}
            action={
              <Button variant="secondary" onClick={() => void projects.refetch()}>
                Try again
              </Button>
            }
          />
        ) : (
          <EmptyState title="Project not found" message="This project does not exist, or you are not a member of its team." />
        )}
      </div>
    );
  }
  return (
    <div className="space-y-8">
      <div>
        <Link to="/projects" className={linkClass}>
          <ArrowLeft className="h-4 w-4" aria-hidden />
          Projects
        </Link>
        <PageHeader
          title={`${project.name} settings`}
          subtitle={`${WORKFLOW_TEXT.projectSettings} · ${project.teamName}`}
          actions={
            <Link to={projectTasksPath(project.id)} className={linkClass}>
              <KanbanSquare className="h-4 w-4" aria-hidden />
              Open board
            </Link>
          }
        />
      </div>
      <WorkflowSection projectId={project.id} canEdit={canEditProject(project.myRole)} />
      <IntakeSection projectId={project.id} canEdit={canEditProject(project.myRole)} />
      <FormsSection project={project} canEdit={canEditProject(project.myRole)} />
      <ShareSection projectId={project.id} canEdit={canEditProject(project.myRole)} />
      {canManageGuests(project.myRole) && <ProjectGuestsSection project={project} />}
    </div>
  );
}
