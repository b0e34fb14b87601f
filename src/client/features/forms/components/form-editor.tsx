import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { FORM_FIELD_KEYS, type FormFieldKey, OUTSIDE_LIMITS } from '../../../../domain/constants';
import { fieldAppliesTo } from '../../../../domain/custom-fields';
import { OUTSIDE_TEXTS } from '../../../../domain/outside-texts';
import type { FormDto, FormFieldDto } from '../../../../domain/schemas/outside';
import { inWorkflowOrder } from '../../../../domain/workflow';
import { TextAreaField, TextField } from '../../../components/ui/field';
import { Modal, ModalActions } from '../../../components/ui/modal';
import { OptionsSelect } from '../../../components/ui/options-select';
import { Switch } from '../../../components/ui/switch';
import { ApiError } from '../../../lib/api-client';
import { errorText, logError } from '../../../lib/errors';
import { useTeamFields } from '../../../lib/queries/custom-fields';
import { useProjectStatuses } from '../../../lib/queries/statuses';
import { teamQueryOptions } from '../../../lib/queries/teams';
import { type FormBody, useCreateForm, useUpdateForm } from '../api/forms-api';

/** What each fixed field is called in the editor, and the label a new form gives it. */
const FIXED: Record<FormFieldKey, { name: string; label: string; help: string }> = {
  title: { name: 'Title', label: 'Title', help: 'A short summary of the request.' },
  description: { name: 'Description', label: 'Description', help: 'Markdown: **bold**, lists, links.' },
  email: { name: 'Requester’s email', label: 'Your email', help: 'We send a confirmation and a link to follow the request.' },
  priority: { name: 'Priority', label: 'Priority', help: '' },
  dueDate: { name: 'Due date', label: 'Needed by', help: '' },
};

interface FieldRow {
  key: string;
  /** The field's name in the editor: a fixed one's, or the custom field's. */
  name: string;
  asked: boolean;
  label: string;
  help: string;
  required: boolean;
}

const DEFAULT_ASKED: ReadonlySet<string> = new Set(['title', 'description', 'email']);

/** Every field a form of this project can ask, as the form asks it now (or as a new form starts). */
function rowsFor(form: FormDto | null, custom: { id: string; name: string }[]): FieldRow[] {
  const given = new Map<string, FormFieldDto>((form?.fields ?? []).map((f) => [f.key, f]));
  const row = (key: string, name: string, label: string, help: string): FieldRow => {
    const f = given.get(key);
    return {
      key,
      name,
      asked: key === 'title' || (form ? Boolean(f) : DEFAULT_ASKED.has(key)),
      label: f?.label ?? label,
      help: f ? (f.help ?? '') : help,
      required: key === 'title' || (f?.required ?? false),
    };
  };
  return [
    ...FORM_FIELD_KEYS.map((key) => row(key, FIXED[key].name, FIXED[key].label, FIXED[key].help)),
    ...custom.map((c) => row(c.id, c.name, c.name, '')),
  ];
}

export interface FormEditorProps {
  project: { id: string; teamId: string };
  /** The form to change; null: 'New form'. */
  form: FormDto | null;
  onClose: () => void;
}

/**
 * 'New form' and a form's edit (issue 40): its name and intro, which fields it asks (the title always), each with its
 * own label, help text and whether it is required; the status and assignee its requests get; open or closed.
 */
export function FormEditor({ project, form, onClose }: FormEditorProps) {
  const formId = useId();
  const statuses = inWorkflowOrder(useProjectStatuses(project.id).data ?? []);
  const team = useQuery(teamQueryOptions(project.teamId));
  const teamFields = useTeamFields(project.teamId);
  const custom = useMemo(
    () => (teamFields.data ?? []).filter((f) => fieldAppliesTo(f, project.id) && f.type !== 'person'),
    [teamFields.data, project.id],
  );
  const [name, setName] = useState(form?.name ?? '');
  const [intro, setIntro] = useState(form?.intro ?? '');
  const [edited, setEdited] = useState<Record<string, Partial<FieldRow>>>({});
  const rows = rowsFor(form, custom).map((r) => ({ ...r, ...edited[r.key] }));
  const [status, setStatus] = useState(form?.status ?? '');
  const [assigneeId, setAssigneeId] = useState(form?.assigneeId ?? '');
  const [open, setOpen] = useState(form?.open ?? true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateForm(project.id);
  const update = useUpdateForm(project.id);
  const saving = create.isPending || update.isPending;

  // A long form scrolls inside the dialog: after a refused save, the first field in error (or the message) takes the
  // focus, so that what went wrong is in view and said.
  const formRef = useRef<HTMLFormElement>(null);
  const [refused, setRefused] = useState(0);
  useEffect(() => {
    if (refused === 0) return;
    const target = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], [role="alert"]');
    target?.focus();
    target?.scrollIntoView?.({ block: 'center' });
  }, [refused]);

  const edit = (key: string, change: Partial<FieldRow>) => setEdited((all) => ({ ...all, [key]: { ...all[key], ...change } }));

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    // Until the team's custom fields are in, the rows lack them: a save would drop the ones the form asks.
    if (!teamFields.isSuccess) return;
    const asked = rows.filter((r) => r.asked);
    const next: Record<string, string> = {};
    if (!name.trim()) next.name = 'Name the form';
    for (const r of asked) if (!r.label.trim()) next[`label.${r.key}`] = 'Give the field a label';
    setErrors(next);
    setFailure(
      asked.length > OUTSIDE_LIMITS.formFieldsMax ? `A form asks at most ${OUTSIDE_LIMITS.formFieldsMax} fields.` : null,
    );
    if (Object.keys(next).length > 0 || asked.length > OUTSIDE_LIMITS.formFieldsMax) {
      setRefused((n) => n + 1);
      return;
    }
    const body: FormBody = {
      name: name.trim(),
      intro: intro.trim() || null,
      fields: asked.map((r) => ({ key: r.key, label: r.label.trim(), help: r.help.trim() || null, required: r.required })),
      ...(status && { status }),
      assigneeId: assigneeId || null,
      open,
    };
    try {
      if (form) await update.mutateAsync({ id: form.id, patch: body });
      else await create.mutateAsync(body);
      onClose();
    } catch (error) {
      logError('Saving a form failed', error);
      if (error instanceof ApiError && error.fields.name) setErrors({ name: error.fields.name });
      setFailure(errorText(error, 'Could not save the form. Please try again.'));
      setRefused((n) => n + 1);
    }
  };

  return (
    <Modal
      open
      onClose={onClose}
      size="lg"
      title={form ? `Edit ${form.name}` : OUTSIDE_TEXTS.newForm}
      description="Anyone with the form's link can send a request: it becomes a task of this project."
      footer={
        <ModalActions onCancel={onClose} type="submit" form={formId} isLoading={saving} disabled={!teamFields.isSuccess}>
          {form ? 'Save form' : 'Create form'}
        </ModalActions>
      }
    >
      <form
        ref={formRef}
        id={formId}
        onSubmit={onSubmit}
        noValidate
        className="space-y-5"
        aria-label={form ? 'Edit form' : 'New form'}
      >
        <TextField
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={OUTSIDE_LIMITS.formNameMax}
          error={errors.name}
          autoFocus
          placeholder="Bug reports"
        />
        <TextAreaField
          label="Intro"
          value={intro}
          onChange={(e) => setIntro(e.target.value)}
          maxLength={OUTSIDE_LIMITS.formIntroMax}
          rows={3}
          placeholder="What this form is for, and what happens next."
        />
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">Fields</legend>
          {rows.map((r) => (
            <FieldEditor key={r.key} row={r} error={errors[`label.${r.key}`]} onChange={(change) => edit(r.key, change)} />
          ))}
          {teamFields.isPending && (
            <p role="status" className="text-sm text-slate-600 dark:text-slate-300">
              Loading the team’s custom fields…
            </p>
          )}
          {teamFields.isError && (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              Could not load the team’s custom fields. Close this and try again.
            </p>
          )}
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          <OptionsSelect
            label="Status of new requests"
            value={status || (statuses[0]?.key ?? '')}
            onChange={(e) => setStatus(e.target.value)}
            options={statuses.map((s) => ({ value: s.key, label: s.name }))}
          />
          <OptionsSelect
            label="Assign new requests to"
            value={assigneeId}
            onChange={(e) => setAssigneeId(e.target.value)}
            emptyOption="Nobody"
            options={(team.data?.members ?? []).map((m) => ({ value: m.userId, label: m.user.fullName }))}
          />
        </div>
        <Switch
          checked={open}
          onCheckedChange={setOpen}
          label="Open"
          description={open ? 'The form takes requests.' : `Its page says '${OUTSIDE_TEXTS.formClosed}'`}
        />
        {failure && (
          <p role="alert" tabIndex={-1} className="text-sm text-red-700 focus:outline-none dark:text-red-400">
            {failure}
          </p>
        )}
      </form>
    </Modal>
  );
}

function FieldEditor({ row, error, onChange }: { row: FieldRow; error?: string; onChange: (c: Partial<FieldRow>) => void }) {
  const id = useId();
  const always = row.key === 'title';
  return (
    <div className="rounded-lg border border-slate-200 p-3 dark:border-slate-700">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <label htmlFor={`${id}-ask`} className="flex items-center gap-2 text-sm font-medium text-slate-900 dark:text-slate-100">
          <input
            id={`${id}-ask`}
            type="checkbox"
            checked={row.asked}
            disabled={always}
            onChange={(e) => onChange({ asked: e.target.checked })}
            className="h-4 w-4 rounded border-slate-400 accent-brand-600"
          />
          {row.name}
          {always && <span className="text-xs font-normal text-slate-600 dark:text-slate-400">(always asked)</span>}
        </label>
        {row.asked && !always && (
          <label className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
            <input
              type="checkbox"
              checked={row.required}
              onChange={(e) => onChange({ required: e.target.checked })}
              className="h-4 w-4 rounded border-slate-400 accent-brand-600"
              aria-label={`${row.name} is required`}
            />
            Required
          </label>
        )}
      </div>
      {row.asked && (
        <div className="mt-3 grid gap-3 sm:grid-cols-2">
          <TextField
            label={`${row.name}: label`}
            value={row.label}
            onChange={(e) => onChange({ label: e.target.value })}
            maxLength={OUTSIDE_LIMITS.fieldLabelMax}
            error={error}
          />
          <TextField
            label={`${row.name}: help text`}
            value={row.help}
            onChange={(e) => onChange({ help: e.target.value })}
            maxLength={OUTSIDE_LIMITS.fieldHelpMax}
          />
        </div>
      )}
    </div>
  );
}
