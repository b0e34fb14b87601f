import { Settings, TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { type FormEvent, useMemo, useState } from 'react';
import { toast } from 'sonner';
import { PROJECT_STATUS_LABELS, PROJECT_STATUSES } from '../../../../domain/constants';
import { MSG } from '../../../../domain/messages';
import { canEditProject } from '../../../../domain/permissions';
import { WORKFLOW_TEXT } from '../../../../domain/workflow';
import { type ProjectFormValues, projectForm } from '../../../../domain/projects';
import { endNotAfterStart, type ProjectDto } from '../../../../domain/schemas/project';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextAreaField, TextField } from '../../../components/ui/field';
import { Modal, ModalActions } from '../../../components/ui/modal';
import { labelled, named, OptionsSelect } from '../../../components/ui/options-select';
import { toastError } from '../../../lib/errors';
import { projectSettingsPath } from '../../../lib/paths';
import { saveForm } from '../../../lib/save-form';
import { useFormState } from '../../../lib/use-form-state';
import { useCreateProject } from '../api/create-project';
import { useDeleteProject } from '../api/delete-project';
import type { TeamOption } from '../api/get-team-options';
import { useUpdateProject } from '../api/update-project';

export interface ProjectModalProps {
  /** The project to edit; create mode when absent. */
  project?: ProjectDto;
  teams: TeamOption[];
  defaultTeamId?: string;
  onClose: () => void;
}

function initialValues(project: ProjectDto | undefined, teams: TeamOption[], defaultTeamId?: string): ProjectFormValues {
  if (project) {
    return {
      name: project.name,
      description: project.description ?? '',
      teamId: project.teamId,
      status: project.status,
      startDate: project.startDate ?? '',
      endDate: project.endDate ?? '',
    };
  }
  const teamId = teams.some((t) => t.id === defaultTeamId) ? defaultTeamId! : (teams[0]?.id ?? '');
  return { name: '', description: '', teamId, status: 'planning', startDate: '', endDate: '' };
}

function Warning({ children }: { children: string }) {
  return (
    <p className="flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
      <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      <span>{children}</span>
    </p>
  );
}

/** Create or edit a project (spec §5 'Project form'). Mount it only while open, so it starts fresh. */
export function ProjectModal({ project, teams, defaultTeamId, onClose }: ProjectModalProps) {
  const isEdit = Boolean(project);
  const canEdit = !project || canEditProject(project.myRole);
  const initial = useMemo(() => initialValues(project, teams, defaultTeamId), [project, teams, defaultTeamId]);
  const form = useFormState(initial);
  const { values, bind } = form;
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const create = useCreateProject();
  const update = useUpdateProject();
  const remove = useDeleteProject();
  const saving = create.isPending || update.isPending;
  const datesOutOfOrder = endNotAfterStart(values.startDate || null, values.endDate || null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!canEdit) {
      toast.error(MSG.projectNoPermission);
      return;
    }
    const payload = form.validate(projectForm);
    if (!payload) return;
    const request = project
      ? () => update.mutateAsync({ id: project.id, ...payload, version: project.version })
      : () => create.mutateAsync(payload);
    const texts = project
      ? { saved: MSG.projectUpdated, failed: MSG.projectUpdateFailed }
      : { saved: MSG.projectCreated, failed: MSG.projectCreateFailed };
    if (await saveForm(form, request, texts)) onClose();
  };

  const onDelete = async () => {
    if (!project) return;
    try {
      await remove.mutateAsync(project.id);
      toast.success(MSG.projectDeleted);
      setConfirmingDelete(false);
      onClose();
    } catch (error) {
      toastError(error, MSG.projectDeleteFailed);
      setConfirmingDelete(false);
    }
  };

  const formId = 'project-form';
  return (
    <>
      <Modal
        open={!confirmingDelete}
        onClose={onClose}
        title={isEdit ? 'Edit Project' : 'Create New Project'}
        size="lg"
        footer={
          <>
            {isEdit && canEdit && (
              <Button variant="danger" onClick={() => setConfirmingDelete(true)}>
                Delete
              </Button>
            )}
            {project && (
              // Every member: plain members read the workflow there.
              <Link
                to={projectSettingsPath(project.id)}
                className="mr-auto inline-flex h-10 items-center gap-1.5 rounded-lg px-2 text-sm font-medium text-brand-700 hover:underline dark:text-indigo-300"
              >
                <Settings className="h-4 w-4" aria-hidden />
                {WORKFLOW_TEXT.projectSettings}
              </Link>
            )}
            <ModalActions onCancel={onClose} type="submit" form={formId} isLoading={saving}>
              {isEdit ? 'Update Project' : 'Create Project'}
            </ModalActions>
          </>
        }
      >
        <form id={formId} onSubmit={onSubmit} noValidate className="space-y-4">
          {!canEdit && <Warning>{MSG.projectViewOnly}</Warning>}
          <fieldset disabled={!canEdit} className="space-y-4 disabled:opacity-90">
            <TextField label="Project Name" {...bind('name')} placeholder="Enter project name" autoFocus={canEdit} />
            <TextAreaField label="Description" {...bind('description')} placeholder="Describe the project" rows={3} />
            <div className="grid gap-4 sm:grid-cols-2">
              <OptionsSelect
                label="Team"
                {...bind('teamId')}
                disabled={teams.length === 0}
                emptyOption={teams.length === 0 ? MSG.noTeamsAvailable : values.teamId ? undefined : 'Select a team'}
                options={named(teams)}
              />
              <OptionsSelect label="Status" {...bind('status')} options={labelled(PROJECT_STATUSES, PROJECT_STATUS_LABELS)} />
              <TextField label="Start Date" type="date" {...bind('startDate')} />
              <TextField label="End Date" type="date" {...bind('endDate')} min={values.startDate || undefined} />
            </div>
            {datesOutOfOrder && <Warning>{MSG.endAfterStartWarning}</Warning>}
          </fieldset>
        </form>
      </Modal>
      {project && (
        <ConfirmDialog
          open={confirmingDelete}
          title="Delete Project"
          message={`Are you sure you want to delete "${project.name}"? Its tasks will be deleted too.`}
          confirmLabel="Delete"
          isLoading={remove.isPending}
          onConfirm={onDelete}
          onCancel={() => setConfirmingDelete(false)}
        />
      )}
    </>
  );
}
