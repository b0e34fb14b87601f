import { useState } from 'react';
import { toast } from 'sonner';
import { MSG } from '../../../../domain/messages';
import type { InvitationDto } from '../../../../domain/schemas/team';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { toastError } from '../../../lib/errors';
import { useCancelInvitation } from '../api/team-invitations';

/** Asks the spec's confirmation, then cancels the invitation. Render `dialog` once. */
export function useCancelInvitationFlow() {
  const cancel = useCancelInvitation();
  const [target, setTarget] = useState<InvitationDto | null>(null);

  const onConfirm = async () => {
    if (!target) return;
    try {
      await cancel.mutateAsync(target.id);
      toast.success(MSG.invitationCancelled);
    } catch (error) {
      toastError(error, MSG.cancelInvitationFailed);
    } finally {
      setTarget(null);
    }
  };

  const dialog = (
    <ConfirmDialog
      open={target !== null}
      title="Cancel Invitation"
      message={target ? MSG.confirmCancelInvitation(target.email) : ''}
      confirmLabel="Cancel Invitation"
      isLoading={cancel.isPending}
      onConfirm={() => void onConfirm()}
      onCancel={() => setTarget(null)}
    />
  );
  return { ask: setTarget, dialog };
}
