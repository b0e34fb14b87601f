import { Copy, Pencil, Plus, RefreshCw, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { OUTSIDE_TEXTS } from '../../../../domain/outside-texts';
import type { FormDto } from '../../../../domain/schemas/outside';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { PageSection } from '../../../components/ui/page-section';
import { toastError } from '../../../lib/errors';
import { useDeleteForm, useProjectForms, useResetForm } from '../api/forms-api';
import { FormEditor } from './form-editor';

export interface FormsSectionProps {
  project: { id: string; teamId: string };
  /** The project's editors (canEditProject) manage its forms; everyone else sees the list. */
  canEdit: boolean;
}

type Confirming = { kind: 'reset' | 'delete'; form: FormDto } | null;

/**
 * The project settings' 'Forms' (issue 40): the project's request forms, each with its public link ('Copy link'),
 * open or closed; its owners and admins make them ('New form'), edit them, reset their links and delete them.
 */
export function FormsSection({ project, canEdit }: FormsSectionProps) {
  const headingId = useId();
  const forms = useProjectForms(project.id);
  const reset = useResetForm(project.id);
  const remove = useDeleteForm(project.id);
  const [editing, setEditing] = useState<FormDto | 'new' | null>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);

  const copy = async (form: FormDto) => {
    try {
      await navigator.clipboard.writeText(form.url);
      toast.success('Link copied');
    } catch {
      toast.error(`Could not copy the link: ${form.url}`);
    }
  };

  const confirm = async () => {
    if (!confirming) return;
    const { kind, form } = confirming;
    try {
      if (kind === 'reset') {
        await reset.mutateAsync(form.id);
        toast.success('New link made: the old one no longer works');
      } else {
        await remove.mutateAsync(form.id);
        toast.success(`Deleted ${form.name}`);
      }
      setConfirming(null);
    } catch (error) {
      toastError(error, kind === 'reset' ? 'Could not reset the link' : 'Could not delete the form');
    }
  };

  return (
    <PageSection
      headingId={headingId}
      title={OUTSIDE_TEXTS.forms}
      description="Request forms let people without an account send requests to this project: each one becomes a task. Anyone with a form's link can use it."
      action={
        canEdit ? (
          <Button onClick={() => setEditing('new')}>
            <Plus className="h-4 w-4" aria-hidden />
            {OUTSIDE_TEXTS.newForm}
          </Button>
        ) : undefined
      }
    >
      {forms.isPending ? (
        <div role="status" className="h-16 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800">
          <span className="sr-only">Loading forms…</span>
        </div>
      ) : forms.isError ? (
        <div className="flex flex-wrap items-center gap-3 text-sm text-slate-700 dark:text-slate-200">
          <p>Could not load the forms.</p>
          <Button variant="secondary" size="sm" onClick={() => void forms.refetch()}>
            Try again
          </Button>
        </div>
      ) : forms.data.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">No forms yet.</p>
      ) : (
        <ul aria-labelledby={headingId} className="space-y-2">
          {forms.data.map((form) => (
            <li
              key={form.id}
              className="flex flex-col gap-3 rounded-lg border border-slate-200 px-3 py-3 sm:flex-row sm:items-center sm:justify-between dark:border-slate-700"
            >
              <div className="min-w-0">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium text-slate-900 dark:text-slate-100">{form.name}</span>
                  <Badge tone={form.open ? 'success' : 'secondary'}>{form.open ? 'Open' : 'Closed'}</Badge>
                </div>
                <p className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">
                  {form.fields.length === 1 ? '1 field' : `${form.fields.length} fields`}
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                <Button variant="secondary" size="sm" onClick={() => void copy(form)} aria-label={`Copy link of ${form.name}`}>
                  <Copy className="h-4 w-4" aria-hidden />
                  {OUTSIDE_TEXTS.copyLink}
                </Button>
                {canEdit && (
                  <>
                    <Button variant="secondary" size="sm" onClick={() => setEditing(form)} aria-label={`Edit ${form.name}`}>
                      <Pencil className="h-4 w-4" aria-hidden />
                      Edit
                    </Button>
                    <Button
                      variant="secondary"
                      size="sm"
                      onClick={() => setConfirming({ kind: 'reset', form })}
                      aria-label={`Reset link of ${form.name}`}
                    >
                      <RefreshCw className="h-4 w-4" aria-hidden />
                      {OUTSIDE_TEXTS.resetLink}
                    </Button>
                    <Button
                      variant="danger"
                      size="sm"
                      onClick={() => setConfirming({ kind: 'delete', form })}
                      aria-label={`Delete ${form.name}`}
                    >
                      <Trash2 className="h-4 w-4" aria-hidden />
                      Delete
                    </Button>
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {editing && <FormEditor project={project} form={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={confirming !== null}
        title={
          confirming?.kind === 'reset' ? `Reset the link of ${confirming.form.name}?` : `Delete ${confirming?.form.name ?? ''}?`
        }
        message={
          confirming?.kind === 'reset'
            ? 'The form gets a new link. The old one stops working at once: anyone who has it can no longer send requests.'
            : 'The form and its link are deleted. Tasks it made stay.'
        }
        confirmLabel={confirming?.kind === 'reset' ? OUTSIDE_TEXTS.resetLink : 'Delete form'}
        isLoading={reset.isPending || remove.isPending}
        onConfirm={() => void confirm()}
        onCancel={() => setConfirming(null)}
      />
    </PageSection>
  );
}
