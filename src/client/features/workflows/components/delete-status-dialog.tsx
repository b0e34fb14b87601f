import { useState } from 'react';
import { toast } from 'sonner';
import type { StatusDto } from '../../../../domain/schemas/workflow';
import { WORKFLOW_TEXT } from '../../../../domain/workflow';
import { ApiError } from '../../../lib/api-client';
import { isError, toastError } from '../../../lib/errors';
import { Modal, ModalActions } from '../../../components/ui/modal';
import { named, OptionsSelect } from '../../../components/ui/options-select';
import { useDeleteStatus } from '../api/save-status';
import { moveTargets, ruleMessage, taskCountText, WORKFLOW_MSG } from '../workflow-edit';

export interface DeleteStatusDialogProps {
  projectId: string;
  status: StatusDto;
  statuses: readonly StatusDto[];
  /** Its tasks as last counted (undefined: not known; the server's 409 then asks where they go). */
  taskCount: number | undefined;
  onDeleted: (name: string) => void;
  onClose: () => void;
}

/**
 * Deleting a status: one without tasks after a confirmation; one with tasks asks 'Move its tasks to' (the status before
 * it by default), and the tasks move in the same transaction. Mount it only while open, so it starts fresh.
 */
export function DeleteStatusDialog({ projectId, status, statuses, taskCount, onDeleted, onClose }: DeleteStatusDialogProps) {
  const remove = useDeleteStatus(projectId);
  const targets = moveTargets(statuses, status.id);
  const at = statuses.findIndex((s) => s.id === status.id);
  const [moveTo, setMoveTo] = useState(() => (statuses[at - 1] ?? targets[0])?.id ?? '');
  // Tasks were counted, or the server said there are some (counted after the dialog opened).
  const [hasTasks, setHasTasks] = useState((taskCount ?? 0) > 0);
  const [moveError, setMoveError] = useState<string>();

  const onConfirm = async () => {
    try {
      await remove.mutateAsync({ statusId: status.id, moveTo: hasTasks ? moveTo : undefined });
      const target = hasTasks ? targets.find((s) => s.id === moveTo) : undefined;
      toast.success(target ? `${WORKFLOW_MSG.statusDeleted}. Its tasks are in ${target.name}.` : WORKFLOW_MSG.statusDeleted);
      onDeleted(status.name);
      onClose();
    } catch (error) {
      if (isError(error, 'status_not_empty')) {
        setHasTasks(true);
        setMoveError(ruleMessage('status_not_empty'));
      } else if (error instanceof ApiError && error.fields.moveTo) {
        setMoveError(error.fields.moveTo);
      } else {
        toastError(error, WORKFLOW_MSG.deleteFailed);
        onClose();
      }
    }
  };

  return (
    <Modal
      open
      onClose={onClose}
      title={`${WORKFLOW_TEXT.deleteStatus} "${status.name}"`}
      size="sm"
      footer={
        <ModalActions onCancel={onClose} variant="danger" onClick={onConfirm} isLoading={remove.isPending}>
          {WORKFLOW_TEXT.deleteStatus}
        </ModalActions>
      }
    >
      {hasTasks ? (
        <div className="space-y-3">
          <p className="text-sm text-slate-700 dark:text-slate-200">
            {taskCount ? `"${status.name}" has ${taskCountText(taskCount)}.` : `"${status.name}" has tasks.`} They move to the
            status you choose, then the status is deleted.
          </p>
          <OptionsSelect
            label={WORKFLOW_TEXT.moveTasksTo}
            options={named(targets)}
            value={moveTo}
            error={moveError}
            onChange={(e) => {
              setMoveTo(e.target.value);
              setMoveError(undefined);
            }}
          />
        </div>
      ) : (
        <p className="text-sm text-slate-700 dark:text-slate-200">
          Delete the status "{status.name}"? It has no tasks. This cannot be undone.
        </p>
      )}
    </Modal>
  );
}
