import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { createNoteInput } from '../../../../domain/schemas/note';
import { TextField } from '../../../components/ui/field';
import { Modal, ModalActions } from '../../../components/ui/modal';
import { named, OptionsSelect } from '../../../components/ui/options-select';
import { projectsQueryOptions } from '../../../lib/queries/projects';
import { saveForm } from '../../../lib/save-form';
import { useFormState } from '../../../lib/use-form-state';
import { useCreateNote } from '../api/notes';

export interface NewNoteDialogProps {
  teams: { id: string; name: string }[];
  defaultTeamId?: string;
  defaultProjectId?: string;
  onClose: () => void;
}

/** 'New Note': a title, the team it belongs to and, optionally, one of that team's projects; opens the note once made. */
export function NewNoteDialog({ teams, defaultTeamId, defaultProjectId, onClose }: NewNoteDialogProps) {
  const initial = useMemo(() => {
    const teamId = teams.some((t) => t.id === defaultTeamId) ? defaultTeamId! : (teams[0]?.id ?? '');
    return { title: '', teamId, projectId: teamId === defaultTeamId ? (defaultProjectId ?? '') : '' };
  }, [teams, defaultTeamId, defaultProjectId]);
  const form = useFormState(initial);
  const { values, bind, setField } = form;
  const projects = useQuery({ ...projectsQueryOptions({ teamId: values.teamId || undefined }), enabled: Boolean(values.teamId) });
  const create = useCreateNote();
  const navigate = useNavigate();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const input = form.validate(createNoteInput, { ...values, projectId: values.projectId || null });
    if (!input) return;
    let id = '';
    const saved = await saveForm(
      form,
      async () => {
        id = (await create.mutateAsync(input)).id;
      },
      { saved: 'Note created', failed: 'Failed to create the note' },
    );
    if (saved) {
      onClose();
      navigate(`/notes/${id}`);
    }
  };

  return (
    <Modal
      open
      onClose={onClose}
      title="New Note"
      footer={
        <ModalActions
          onCancel={onClose}
          type="submit"
          form="new-note-form"
          isLoading={create.isPending}
          disabled={teams.length === 0}
        >
          Create Note
        </ModalActions>
      }
    >
      <form id="new-note-form" onSubmit={onSubmit} noValidate className="space-y-4">
        <TextField label="Title" {...bind('title')} placeholder="Meeting notes, a spec, a runbook…" autoFocus maxLength={200} />
        <OptionsSelect
          label="Team"
          {...bind('teamId')}
          onChange={(e) => {
            setField('teamId', e.target.value);
            setField('projectId', '');
          }}
          disabled={teams.length === 0}
          emptyOption={teams.length === 0 ? 'No teams available' : undefined}
          options={named(teams)}
        />
        <OptionsSelect
          label="Project (optional)"
          {...bind('projectId')}
          disabled={!values.teamId}
          emptyOption="No project"
          options={named(projects.data ?? [])}
        />
      </form>
    </Modal>
  );
}
