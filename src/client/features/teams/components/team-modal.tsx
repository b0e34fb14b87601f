import { AlertTriangle, Lock, LogOut, Settings2, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { ERROR_MESSAGES } from '../../../../domain/errors';
import { MSG } from '../../../../domain/messages';
import { canEditTeam, canManageMembers } from '../../../../domain/permissions';
import { createTeamInput, type TeamDto } from '../../../../domain/schemas/team';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextAreaField, TextField } from '../../../components/ui/field';
import { Modal, ModalActions } from '../../../components/ui/modal';
import { isError, toastError } from '../../../lib/errors';
import { saveForm } from '../../../lib/save-form';
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
const readOnlyField = {
  readOnly: true,
  className:
    '[&_input]:bg-slate-100 [&_input]:text-slate-600 [&_textarea]:bg-slate-100 [&_textarea]:text-slate-600 dark:[&_input]:bg-slate-800 dark:[&_input]:text-slate-300 dark:[&_textarea]:bg-slate-800 dark:[&_textarea]:text-slate-300',
};

/** The way out of a team from its modal: the owner deletes it, anyone else leaves it. */
const EXITS = {
  delete: {
    label: 'Delete Team',
    icon: Trash2,
    confirm: MSG.confirmDeleteTeam,
    done: MSG.teamDeleted,
    failed: MSG.teamDeleteFailed,
  },
  leave: { label: 'Leave Team', icon: LogOut, confirm: MSG.confirmLeaveTeam, done: MSG.teamLeft, failed: MSG.teamLeaveFailed },
} as const;

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
    const request = team
      ? () => updateTeam.mutateAsync({ id: team.id, input: { ...body, version: team.version } })
      : () => createTeam.mutateAsync(body);
    const texts = team
      ? { saved: MSG.teamUpdated, failed: MSG.teamUpdateFailed }
      : { saved: MSG.teamCreated, failed: MSG.teamCreateFailed };
    // A failure is only logged (spec §8); a stale edit shows its notice above the form.
    const onFailed = (error: unknown) => isError(error, 'stale_edit') && setStaleNotice(true);
    if (await saveForm(form, request, texts, { logOnly: true, onFailed })) onClose();
  };

  const onConfirm = async () => {
    if (!team || !confirm) return;
    try {
      await (confirm === 'delete' ? deleteTeam : leaveTeam).mutateAsync(team.id);
      toast.success(EXITS[confirm].done);
      setConfirm(null);
      onClose();
    } catch (error) {
      setConfirm(null);
      toastError(error, EXITS[confirm].failed);
    }
  };

  const saving = createTeam.isPending || updateTeam.isPending;
  const fieldMode = team && !isOwner ? readOnlyField : {};
  const exit = EXITS[confirm ?? (isOwner ? 'delete' : 'leave')];

  return (
    <Modal
      open={open}
      onClose={onClose}
      size="lg"
      title={isEdit ? 'Edit Team' : 'Create New Team'}
      footer={
        <div className="flex w-full flex-wrap items-center justify-between gap-2">
          <div>
            {team && (
              <Button variant="ghost" onClick={() => setConfirm(isOwner ? 'delete' : 'leave')}>
                <span className="inline-flex items-center gap-2 text-red-700 dark:text-red-400">
                  <exit.icon className="h-4 w-4" aria-hidden />
                  {exit.label}
                </span>
              </Button>
            )}
          </div>
          <div className="flex gap-2">
            <ModalActions onCancel={onClose} type="submit" form={formId} isLoading={saving}>
              {isEdit ? 'Update Team' : 'Create Team'}
            </ModalActions>
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
          <TextField label="Team Name" placeholder="Enter team name" {...form.bind('name')} {...fieldMode} autoFocus={!isEdit} />
          <TextAreaField
            label="Description"
            placeholder="Describe your team's purpose"
            {...form.bind('description')}
            {...fieldMode}
            rows={3}
          />
        </form>
        {team && (
          <Link
            to={`/teams/${team.id}/settings`}
            className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline dark:text-indigo-300"
          >
            <Settings2 className="h-4 w-4" aria-hidden />
            Team settings: webhooks, audit log, export and import
          </Link>
        )}
        {/* Issue 41: a team that requires SSO, seen from a session that did not come from it, shows no content. */}
        {team?.ssoLocked && (
          <p
            role="status"
            className="flex items-center gap-2 rounded-lg bg-amber-50 p-3 text-sm font-medium text-amber-900 dark:bg-amber-950/40 dark:text-amber-200"
          >
            <Lock className="h-4 w-4 shrink-0" aria-hidden />
            {ERROR_MESSAGES.sso_required}
          </p>
        )}
        {team && !team.ssoLocked && <TeamMembers team={team} />}
        {team && canManage && !team.ssoLocked && (
          <>
            <InviteMemberForm teamId={team.id} />
            <PendingInvitations teamId={team.id} />
          </>
        )}
      </div>
      {team && (
        <ConfirmDialog
          open={confirm !== null}
          title={exit.label}
          message={exit.confirm(team.name)}
          confirmLabel={exit.label}
          isLoading={deleteTeam.isPending || leaveTeam.isPending}
          onConfirm={() => void onConfirm()}
          onCancel={() => setConfirm(null)}
        />
      )}
    </Modal>
  );
}
