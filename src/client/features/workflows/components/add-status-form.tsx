import { Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { createStatusInput } from '../../../../domain/schemas/workflow';
import {
  STATUS_CATEGORIES,
  STATUS_CATEGORY_COLORS,
  STATUS_CATEGORY_LABELS,
  type StatusCategory,
  WORKFLOW_TEXT,
} from '../../../../domain/workflow';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { labelled, OptionsSelect } from '../../../components/ui/options-select';
import { saveForm } from '../../../lib/save-form';
import { useFormState } from '../../../lib/use-form-state';
import { useCreateStatus } from '../api/save-status';
import { emptyDraft, WORKFLOW_MSG } from '../workflow-edit';
import { ColorField } from './color-field';

export interface AddStatusFormProps {
  projectId: string;
  /** Told the new status's name once it is added (for the screen reader's announcement). */
  onAdded: (name: string) => void;
}

/** 'Add status': name, category and colour; the new status goes after the last one. */
export function AddStatusForm({ projectId, onAdded }: AddStatusFormProps) {
  const create = useCreateStatus(projectId);
  const form = useFormState(emptyDraft());
  const { values, errors, bind, setField } = form;
  // The colour follows the category until it is picked.
  const [colorPicked, setColorPicked] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const input = form.validate(createStatusInput);
    if (!input) return;
    const saved = await saveForm(
      form,
      () => create.mutateAsync(input),
      { saved: WORKFLOW_MSG.statusAdded, failed: WORKFLOW_MSG.addFailed },
      { fieldErrorsOnly: true },
    );
    if (saved) {
      onAdded(input.name);
      form.setValues(emptyDraft(values.category));
      setColorPicked(false);
    }
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label={WORKFLOW_TEXT.addStatus}
      className="flex flex-wrap items-start gap-x-3 gap-y-2 rounded-lg border border-dashed border-slate-300 p-3 dark:border-slate-600"
    >
      <TextField label="Name" className="min-w-40 flex-[2_1_10rem]" placeholder="e.g. QA" {...bind('name')} />
      <OptionsSelect
        label="Category"
        className="min-w-36 flex-[1_1_9rem]"
        options={labelled(STATUS_CATEGORIES, STATUS_CATEGORY_LABELS)}
        {...bind('category')}
        onChange={(e) => {
          const category = e.target.value as StatusCategory;
          setField('category', category);
          if (!colorPicked) setField('color', STATUS_CATEGORY_COLORS[category]);
        }}
      />
      <ColorField
        label="Colour"
        value={values.color}
        error={errors.color}
        onValueChange={(color) => {
          setColorPicked(true);
          setField('color', color);
        }}
      />
      <Button type="submit" className="mt-6" isLoading={create.isPending}>
        <Plus className="h-4 w-4" aria-hidden />
        {WORKFLOW_TEXT.addStatus}
      </Button>
    </form>
  );
}
