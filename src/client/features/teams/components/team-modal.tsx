import { AlertTriangle, LogOut, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { MSG } from '../../../../domain/messages';
import { canEditTeam, canManageMembers } from '../../../../domain/permissions';
import { createTeamInput, type TeamDto } from '../../../../domain/schemas/team';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextAreaField, TextField } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { ApiError } from '../../../lib/api-client';
import { isError, logError, toastError } from '../../../lib/errors';
import { useFormState } from '../../../lib/use-form-state';
import { useDeleteTeam, useLeaveTeam } from '../api/delete-team';
import { useCreateTeam, useUpdateTeam } from '../api/save-team';
import { InviteMemberForm } from './invite-member-form';
import { PendingInvitations } from './pending-invitations';
import { TeamMembers } from './team-members';

export interface TeamModalProps {
  open: boolean;
  onClose: () => void;
  /** Edit mode when given; create mode otherwise. */
  team?: TeamDto;
}

const formId = 'team-form';
/** Read-only (not disabled) so the values stay focusable and readable; styled like disabled. */
const readOnlyClass =
  '[&_input]:bg-slate-100 [&_input]:text-slate-600 [&_textarea]:bg-slate-100 [&_textarea]:text-slate-600 dark:[&_input]:bg-slate-800 dark:[&_input]:text-slate-300 dark:[&_textarea]:bg-slate-800 dark:[&_textarea]:text-slate-300';

export function TeamModal({ open, onClose, team }: TeamModalProps) {
  const isEdit = Boolean(team);
  const isOwner = team ? canEditTeam(team.myRole) : true;
  const canManage = team ? canManageMembers(team.myRole) : false;
  const form = useFormState({
    name: team?.name ?? '',
    description: team?.description ?? '',
  });
  const [staleNotice, setStaleNotice] = useState(false);
  const [confirm, setConfirm] = useState<'delete' | 'leave' | null>(null);
  const createTeam = useCreateTeam();
  const updateTeam = useUpdateTeam();
  const deleteTeam = useDeleteTeam();
  const leaveTeam = useLeaveTeam();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (team && !isOwner) {
      toast.error(MSG.teamNoPermission);
      return;
    }
    const body = form.validate(createTeamInput);
    if (!body) return;
    try {
      if (team) {
        await updateTeam.mutateAsync({ id: team.id, input: { ...body, version: team.version } });
        toast.success(MSG.teamUpdated);
      } else {
        await createTeam.mutateAsync(body);
        toast.success(MSG.teamCreated);
      }
      onClose();
    } catch (error) {
      // Save failures are logged and the modal stays open (spec §8).
      logError(team ? MSG.teamUpdateFailed : MSG.teamCreateFailed, error);
      if (isError(error, 'stale_edit')) setStaleNotice(true);
      if (error instanceof ApiError) form.showFieldErrors(error.fields);
    }
  };

  const onConfirm = async () => {
    if (!team || !confirm) return;
    try {
      if (confirm === 'delete') {
        await deleteTeam.mutateAsync(team.id);
        toast.success(MSG.teamDeleted);
      } else {
        await leaveTeam.mutateAsync(team.id);
        toast.success(MSG.teamLeft);
      }
      setConfirm(null);
      onClose();
    } catch (error) {
      setConfirm(null);
      toastError(error, confirm === 'delete' ? MSG.teamDeleteFailed : MSG.teamLeaveFailed);
    }
  };

  const saving = createTeam.isPending || updateTeam.isPending;
  const readOnly = Boolean(team) && !isOwner;

  return (
    <Modal
      open={open}
      onClose={onClose}
      size="lg"
      title={isEdit ? 'Edit Team' : 'Create New Team'}
      footer={
        <div className="flex w-full flex-wrap items-center justify-between gap-2">
          <div>
            {team && isOwner && (
              <Button variant="ghost" onClick={() => setConfirm('delete')}>
                <span className="inline-flex items-center gap-2 text-red-700 dark:text-red-400">
                  <Trash2 className="h-4 w-4" aria-hidden />
                  Delete Team
                </span>
              </Button>
            )}
            {team && !isOwner && (
              <Button variant="ghost" onClick={() => setConfirm('leave')}>
                <span className="inline-flex items-center gap-2 text-red-700 dark:text-red-400">
                  <LogOut className="h-4 w-4" aria-hidden />
                  Leave Team
                </span>
              </Button>
            )}
          </div>
          <div className="flex gap-2">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" form={formId} isLoading={saving}>
              {isEdit ? 'Update Team' : 'Create Team'}
            </Button>
          </div>
        </div>
      }
    >
      <div className="space-y-6">
        {team && !isOwner && (
          <div
            role="note"
            className="flex gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
          >
            <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
            <p>{MSG.teamViewOnly}</p>
          </div>
        )}
        {staleNotice && (
          <p role="alert" className="rounded-lg bg-sky-50 p-3 text-sm text-sky-900 dark:bg-sky-950 dark:text-sky-200">
            {MSG.staleEdit}
          </p>
        )}
        <form id={formId} onSubmit={onSubmit} noValidate className="space-y-4">
          <TextField
            label="Team Name"
            placeholder="Enter team name"
            {...form.bind('name')}
            readOnly={readOnly}
            className={readOnly ? readOnlyClass : undefined}
            autoFocus={!isEdit}
          />
          <TextAreaField
            label="Description"
            placeholder="Describe your team's purpose"
            {...form.bind('description')}
            readOnly={readOnly}
            className={readOnly ? readOnlyClass : undefined}
            rows={3}
          />
        </form>
        {team && <TeamMembers team={team} />}
        {team && canManage && (
          <>
            <InviteMemberForm teamId={team.id} />
            <PendingInvitations teamId={team.id} />
          </>
        )}
      </div>
      {team && (
        <ConfirmDialog
          open={confirm !== null}
          title={confirm === 'delete' ? 'Delete Team' : 'Leave Team'}
          message={confirm === 'delete' ? MSG.confirmDeleteTeam(team.name) : MSG.confirmLeaveTeam(team.name)}
          confirmLabel={confirm === 'delete' ? 'Delete Team' : 'Leave Team'}
          isLoading={deleteTeam.isPending || leaveTeam.isPending}
          onConfirm={() => void onConfirm()}
          onCancel={() => setConfirm(null)}
        />
      )}
    </Modal>
  );
}
