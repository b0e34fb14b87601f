import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import {
  CUSTOM_FIELD_LIMITS,
  CUSTOM_FIELD_TYPE_LABELS,
  CUSTOM_FIELD_TYPES,
  type CustomFieldType,
} from '../../../../domain/custom-fields';
import {
  type CreateCustomFieldInput,
  type CustomFieldDto,
  createCustomFieldInput,
  type UpdateCustomFieldInput,
  updateCustomFieldInput,
} from '../../../../domain/schemas/custom-field';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextField } from '../../../components/ui/field';
import { Modal, ModalActions } from '../../../components/ui/modal';
import { labelled, OptionsSelect } from '../../../components/ui/options-select';
import { Switch } from '../../../components/ui/switch';
import { ApiError } from '../../../lib/api-client';
import { isError, logError, toastError } from '../../../lib/errors';
import { projectsQueryOptions } from '../../../lib/queries/projects';
import { useFormState } from '../../../lib/use-form-state';
import { fetchFieldUsage, useCreateField, useUpdateField } from '../api/save-field';
import {
  createInputOf,
  draftOf,
  emptyFieldDraft,
  FIELD_MSG,
  type FieldDraft,
  hasOptions,
  newOption,
  type OptionDraft,
  optionErrors,
  removedOptions,
  removeOptionsText,
  splitServerErrors,
  updateInputOf,
} from '../field-edit';
import { OptionList } from './option-list';

const TYPE_OPTIONS = labelled(CUSTOM_FIELD_TYPES, CUSTOM_FIELD_TYPE_LABELS);
const DECIMALS_OPTIONS = Array.from({ length: CUSTOM_FIELD_LIMITS.decimalsMax + 1 }, (_, n) => ({
  value: String(n),
  label: n === 0 ? '0 (whole numbers)' : String(n),
}));

export interface FieldFormDialogProps {
  teamId: string;
  /** The field to edit; absent: a new one. */
  field?: CustomFieldDto;
  onClose: () => void;
}

type Pending = { input: UpdateCustomFieldInput; text: string; sent: OptionDraft[]; several: boolean };

/**
 * 'Add field' / 'Edit field': name, type (fixed once made), a number's unit and decimals, a select's options, the
 * projects it is for and 'Show on card'. Removing options that tasks have asks first, saying how many. The server's
 * refusals show under their fields. Mount it only while open, so it starts fresh.
 */
export function FieldFormDialog({ teamId, field, onClose }: FieldFormDialogProps) {
  const formId = useId();
  const projectsLegendId = useId();
  const projectsErrorId = useId();
  const queryClient = useQueryClient();
  const projects = useQuery(projectsQueryOptions({ teamId }));
  const create = useCreateField(teamId);
  const update = useUpdateField(teamId);
  const form = useFormState<FieldDraft>(field ? draftOf(field) : emptyFieldDraft());
  const { values, errors, setErrors, setField, bind } = form;
  const [optionErrs, setOptionErrs] = useState<Record<string, string>>({});
  const [checking, setChecking] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const teamProjects = projects.data ?? [];

  const setType = (type: CustomFieldType) => {
    setField('type', type);
    if (hasOptions(type) && values.options.length === 0) setField('options', [newOption([])]);
  };

  const setOptions = (options: OptionDraft[], edited?: string) => {
    setField('options', options);
    if (edited && optionErrs[edited]) {
      const { [edited]: _gone, ...rest } = optionErrs;
      setOptionErrs(rest);
    }
  };

  const toggleProject = (id: string, on: boolean) =>
    setField('projectIds', on ? [...values.projectIds.filter((p) => p !== id), id] : values.projectIds.filter((p) => p !== id));

  /** The checks of the schema and those it cannot make (options' names, a select's first option, a project chosen). */
  const check = <T,>(valid: T | null): T | null => {
    const more: Partial<Record<keyof FieldDraft, string>> = {};
    const byOption = hasOptions(values.type) ? optionErrors(values.options) : {};
    if (hasOptions(values.type) && values.options.length === 0) more.options = FIELD_MSG.needOption;
    if (!values.allProjects && values.projectIds.length === 0) more.projectIds = FIELD_MSG.needProject;
    setOptionErrs(byOption);
    if (Object.keys(more).length > 0) setErrors((e) => ({ ...e, ...more }));
    return valid !== null && Object.keys(more).length === 0 && Object.keys(byOption).length === 0 ? valid : null;
  };

  /** Sends it; a refusal goes under its field (a taken name under Name), anything else is a toast. */
  const send = async (request: () => Promise<unknown>, sent: OptionDraft[], texts: { saved: string; failed: string }) => {
    try {
      await request();
      toast.success(texts.saved);
      onClose();
    } catch (error) {
      const { top, options } = error instanceof ApiError ? splitServerErrors(error.fields, sent) : { top: {}, options: {} };
      if (error instanceof ApiError && isError(error, 'custom_field_name_taken')) top.name ??= error.message;
      const known = Object.fromEntries(Object.entries(top).filter(([key]) => key in values));
      if (Object.keys(known).length > 0 || Object.keys(options).length > 0) {
        setErrors(known);
        setOptionErrs(options);
        logError(texts.failed, error);
      } else toastError(error, texts.failed);
    }
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const sent = values.options;
    if (!field) {
      const input = check(form.validate(createCustomFieldInput, createInputOf(values)) as CreateCustomFieldInput | null);
      if (input) await send(() => create.mutateAsync(input), sent, { saved: FIELD_MSG.created, failed: FIELD_MSG.createFailed });
      return;
    }
    const changes = updateInputOf(field, values);
    if (Object.keys(changes).length === 0) {
      // Nothing to send, but what was typed is still checked (an emptied name is not 'unchanged').
      if (check(form.validate(createCustomFieldInput, createInputOf({ ...values, type: field.type })))) onClose();
      return;
    }
    const input = check(form.validate(updateCustomFieldInput, changes) as UpdateCustomFieldInput | null);
    if (!input) return;
    const removed = input.options ? removedOptions(field, values) : [];
    if (removed.length > 0) {
      setChecking(true);
      try {
        const text = removeOptionsText(removed, await fetchFieldUsage(queryClient, field.id));
        if (text) return setPending({ input, text, sent, several: removed.length > 1 });
      } catch (error) {
        return toastError(error, FIELD_MSG.usageFailed);
      } finally {
        setChecking(false);
      }
    }
    await send(() => update.mutateAsync({ fieldId: field.id, input }), sent, {
      saved: FIELD_MSG.saved,
      failed: FIELD_MSG.saveFailed,
    });
  };

  const confirmRemoval = async () => {
    if (!pending || !field) return;
    const { input, sent } = pending;
    await send(() => update.mutateAsync({ fieldId: field.id, input }), sent, {
      saved: FIELD_MSG.saved,
      failed: FIELD_MSG.saveFailed,
    });
    setPending(null);
  };

  const type = field?.type ?? values.type;
  return (
    <Modal
      open
      onClose={onClose}
      title={field ? FIELD_MSG.editTitle : FIELD_MSG.addTitle}
      size="lg"
      footer={
        <ModalActions onCancel={onClose} type="submit" form={formId} isLoading={create.isPending || update.isPending || checking}>
          {field ? FIELD_MSG.save : FIELD_MSG.add}
        </ModalActions>
      }
    >
      <form id={formId} onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-5">
        <TextField label="Name" autoComplete="off" placeholder="e.g. Severity" autoFocus required {...bind('name')} />
        {field ? (
          <TextField label="Type" value={CUSTOM_FIELD_TYPE_LABELS[field.type]} readOnly hint={FIELD_MSG.typeFixed} />
        ) : (
          <OptionsSelect
            label="Type"
            options={TYPE_OPTIONS}
            {...bind('type')}
            onChange={(e) => setType(e.target.value as CustomFieldType)}
          />
        )}
        {type === 'number' && (
          <div className="flex flex-wrap gap-3">
            <TextField
              label="Unit"
              className="min-w-32 flex-1"
              autoComplete="off"
              placeholder="e.g. h, €, pts"
              hint="Shown after the value (optional)."
              {...bind('unit')}
            />
            <OptionsSelect
              label="Decimals"
              className="min-w-32 flex-1"
              emptyOption="Any"
              options={DECIMALS_OPTIONS}
              hint="How many a value may have."
              {...bind('decimals')}
            />
          </div>
        )}
        {hasOptions(type) && (
          <OptionList options={values.options} errors={optionErrs} error={errors.options} onChange={setOptions} />
        )}
        <fieldset aria-describedby={errors.projectIds ? projectsErrorId : undefined} className="space-y-2">
          <legend id={projectsLegendId} className="text-sm font-medium text-slate-700 dark:text-slate-200">
            Projects
          </legend>
          <div className="flex flex-wrap gap-x-5 gap-y-2">
            {[true, false].map((all) => (
              <label key={String(all)} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name={`${formId}-projects`}
                  className="h-4 w-4 accent-brand-600"
                  checked={values.allProjects === all}
                  onChange={() => setField('allProjects', all)}
                />
                {all ? FIELD_MSG.allProjects : FIELD_MSG.chosenProjects}
              </label>
            ))}
          </div>
          {!values.allProjects &&
            (projects.isPending ? (
              <p className="text-sm text-slate-600 dark:text-slate-300">Loading projects…</p>
            ) : teamProjects.length === 0 ? (
              <p className="text-sm text-slate-600 dark:text-slate-300">{FIELD_MSG.noProjects}</p>
            ) : (
              <ul
                aria-label="The team's projects"
                className="grid max-h-48 grid-cols-1 gap-x-4 gap-y-2 overflow-y-auto rounded-lg border border-slate-200 p-3 sm:grid-cols-2 dark:border-slate-700"
              >
                {teamProjects.map((p) => (
                  <li key={p.id}>
                    <label className="flex items-center gap-2 text-sm">
                      <input
                        type="checkbox"
                        className="h-4 w-4 rounded border-slate-400 accent-brand-600"
                        checked={values.projectIds.includes(p.id)}
                        onChange={(e) => {
                          toggleProject(p.id, e.target.checked);
                          setErrors(({ projectIds: _gone, ...rest }) => rest);
                        }}
                      />
                      <span className="min-w-0 break-words">{p.name}</span>
                    </label>
                  </li>
                ))}
              </ul>
            ))}
          {errors.projectIds && (
            <p id={projectsErrorId} className="text-sm text-red-700 dark:text-red-400">
              {errors.projectIds}
            </p>
          )}
        </fieldset>
        <Switch
          label={FIELD_MSG.showOnCard}
          description="Cards on the board show its value."
          checked={values.showOnCard}
          onCheckedChange={(on) => setField('showOnCard', on)}
        />
      </form>
      {pending && (
        <ConfirmDialog
          open
          title={pending.several ? 'Remove options' : 'Remove option'}
          message={pending.text}
          confirmLabel="Remove and save"
          isLoading={update.isPending}
          onConfirm={() => void confirmRemoval()}
          onCancel={() => setPending(null)}
        />
      )}
    </Modal>
  );
}
