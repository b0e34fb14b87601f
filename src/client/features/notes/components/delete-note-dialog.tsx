import { toast } from 'sonner';
import type { NoteDto } from '../../../../domain/schemas/note';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { toastError } from '../../../lib/errors';
import { useDeleteNote } from '../api/notes';

export interface DeleteNoteDialogProps {
  /** The note to delete; null: the dialog is closed. */
  note: Pick<NoteDto, 'id' | 'title'> | null;
  onClose: () => void;
  /** After the deletion (instead of onClose): e.g. leave the deleted note's page. */
  onDeleted?: () => void;
}

/** 'Delete note' with its confirmation; closes on a failure (with a toast). */
export function DeleteNoteDialog({ note, onClose, onDeleted }: DeleteNoteDialogProps) {
  const remove = useDeleteNote();
  const onConfirm = async () => {
    if (!note) return;
    try {
      await remove.mutateAsync(note.id);
      toast.success('Note deleted');
    } catch (error) {
      toastError(error, 'Failed to delete the note');
      onClose();
      return;
    }
    (onDeleted ?? onClose)();
  };
  return (
    <ConfirmDialog
      open={note !== null}
      title="Delete note"
      message={`Delete "${note?.title ?? ''}"? Its versions and images are deleted too, for everyone in the team.`}
      confirmLabel="Delete"
      isLoading={remove.isPending}
      onConfirm={onConfirm}
      onCancel={onClose}
    />
  );
}
