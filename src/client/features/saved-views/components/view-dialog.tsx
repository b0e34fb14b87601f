import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import {
  createSavedViewInput,
  type SavedViewConfig,
  type SavedViewDto,
  updateSavedViewInput,
} from '../../../../domain/schemas/saved-view';
import { TextField } from '../../../components/ui/field';
import { Modal, ModalActions } from '../../../components/ui/modal';
import { named, OptionsSelect } from '../../../components/ui/options-select';
import { teamsQueryOptions } from '../../../lib/queries/teams';
import { saveForm } from '../../../lib/save-form';
import { useFormState } from '../../../lib/use-form-state';
import { useCreateSavedView, useUpdateSavedView } from '../api/saved-views';

export interface ViewDialogProps {
  /** The view to rename; a new view of `config` when absent. */
  view?: SavedViewDto;
  config: SavedViewConfig;
  onSaved?: (view: SavedViewDto) => void;
  onClose: () => void;
}

const formId = 'saved-view-form';

/** 'Save view' (a name, and who sees it: only me or one of my teams) and 'Rename'. Mounted only while open. */
export function ViewDialog({ view, config, onSaved, onClose }: ViewDialogProps) {
  const teams = useQuery({ ...teamsQueryOptions(), enabled: !view });
  const form = useFormState({ name: view?.name ?? '', teamId: '' });
  const create = useCreateSavedView();
  const update = useUpdateSavedView();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    let saved: SavedViewDto | undefined;
    if (view) {
      const input = form.validate(updateSavedViewInput, { name: form.values.name });
      if (!input) return;
      const request = async () => {
        saved = await update.mutateAsync({ id: view.id, input });
      };
      if (!(await saveForm(form, request, { saved: 'View renamed', failed: 'Failed to rename view' }))) return;
    } else {
      const input = form.validate(createSavedViewInput, { ...form.values, teamId: form.values.teamId || null, config });
      if (!input) return;
      const request = async () => {
        saved = await create.mutateAsync(input);
      };
      if (!(await saveForm(form, request, { saved: 'View saved', failed: 'Failed to save view' }))) return;
    }
    if (saved) onSaved?.(saved);
    onClose();
  };

  return (
    <Modal
      open
      onClose={onClose}
      size="sm"
      title={view ? 'Rename view' : 'Save view'}
      description={view ? undefined : 'Keeps the current filters, search, sort and layout under a name.'}
      footer={
        <ModalActions onCancel={onClose} type="submit" form={formId} isLoading={create.isPending || update.isPending}>
          {view ? 'Rename' : 'Save view'}
        </ModalActions>
      }
    >
      <form id={formId} onSubmit={onSubmit} noValidate className="space-y-4">
        <TextField label="View name" placeholder="e.g. My open bugs" maxLength={80} autoFocus {...form.bind('name')} />
        {!view && (
          <OptionsSelect
            label="Share with"
            {...form.bind('teamId')}
            emptyOption="Only me"
            options={named(teams.data)}
            hint="Everyone in the team sees the view; each of them sees only the tasks they may see."
          />
        )}
      </form>
    </Modal>
  );
}
