import { toast } from 'sonner';
import type { CustomFieldDto } from '../../../../domain/schemas/custom-field';
import { Modal, ModalActions } from '../../../components/ui/modal';
import { toastError } from '../../../lib/errors';
import { useDeleteField, useFieldUsage } from '../api/save-field';
import { deleteFieldText, FIELD_MSG } from '../field-edit';

export interface DeleteFieldDialogProps {
  teamId: string;
  field: CustomFieldDto;
  onDeleted: () => void;
  onClose: () => void;
}

/**
 * Deleting a field, after a confirmation naming how many tasks lose a value ('Delete “Severity”? Its values on 12 tasks
 * will be removed.'), counted when it opens. Mount it only while open.
 */
export function DeleteFieldDialog({ teamId, field, onDeleted, onClose }: DeleteFieldDialogProps) {
  const usage = useFieldUsage(field.id);
  const remove = useDeleteField(teamId);

  const onConfirm = async () => {
    try {
      await remove.mutateAsync(field.id);
      toast.success(FIELD_MSG.deleted);
      onDeleted();
      onClose();
    } catch (error) {
      toastError(error, FIELD_MSG.deleteFailed);
    }
  };

  return (
    <Modal
      open
      onClose={onClose}
      title={FIELD_MSG.deleteTitle}
      size="sm"
      footer={
        <ModalActions
          onCancel={onClose}
          variant="danger"
          onClick={() => void onConfirm()}
          isLoading={remove.isPending}
          disabled={usage.isPending}
        >
          {FIELD_MSG.deleteTitle}
        </ModalActions>
      }
    >
      <p role="status" className="text-sm text-slate-700 dark:text-slate-200">
        {usage.isPending ? 'Counting the tasks that have a value…' : deleteFieldText(field.name, usage.data?.tasks)}
      </p>
      {!usage.isPending && <p className="mt-2 text-sm text-slate-700 dark:text-slate-200">This cannot be undone.</p>}
    </Modal>
  );
}
