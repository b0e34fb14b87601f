import { useQuery } from '@tanstack/react-query';
import { AlertTriangle } from 'lucide-react';
import { type FormEvent, useMemo, useState } from 'react';
import { SETTINGS_MSG } from '../../../../domain/settings-messages';
import { canLeaveTeam } from '../../../../domain/permissions';
import { confirmsEmail, deleteAccountInput, type ProfileDto } from '../../../../domain/schemas/me';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { Modal, ModalActions } from '../../../components/ui/modal';
import { teamsQueryOptions } from '../../../lib/queries/teams';
import { saveForm } from '../../../lib/save-form';
import { useFormState } from '../../../lib/use-form-state';
import { useDeleteAccount } from '../api/delete-account';
import { CurrentPasswordField, withCurrentPassword } from './current-password-field';
import { SettingsPanel } from './settings-section';

const formId = 'delete-account-form';

/**
 * Deletes the account after the address is typed out (and the password given). The owner of a team is told which
 * teams to delete first; the server refuses them too.
 */
export function DeleteAccountPanel({ profile }: { profile: ProfileDto }) {
  const [open, setOpen] = useState(false);
  // The teams this person cannot leave: the ones they own.
  const owned = useQuery({
    ...teamsQueryOptions(),
    select: (teams) => teams.filter((t) => !canLeaveTeam(t.myRole)).map((t) => t.name),
  });
  const blockers = owned.data ?? [];

  return (
    <SettingsPanel
      danger
      title="Delete account"
      description="Your name and email address are removed and you are signed out everywhere. Tasks and projects you created stay with your teams, shown as created by 'Deleted user'. This cannot be undone."
    >
      {blockers.length > 0 && (
        <p
          id="delete-account-blockers"
          className="mb-4 flex gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
        >
          <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          <span>{SETTINGS_MSG.ownsTeams(blockers)}</span>
        </p>
      )}
      <Button
        variant="danger"
        onClick={() => setOpen(true)}
        disabled={blockers.length > 0}
        aria-describedby={blockers.length > 0 ? 'delete-account-blockers' : undefined}
      >
        Delete account
      </Button>
      {open && <DeleteAccountDialog profile={profile} onClose={() => setOpen(false)} />}
    </SettingsPanel>
  );
}

function DeleteAccountDialog({ profile, onClose }: { profile: ProfileDto; onClose: () => void }) {
  const initial = useMemo(() => ({ email: '', currentPassword: '' }), []);
  const form = useFormState(initial);
  const remove = useDeleteAccount();
  const { email } = profile.user;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const body = form.validate(deleteAccountInput, withCurrentPassword(form.values, profile.hasPassword));
    if (!body) return;
    // Once deleted, the hook signed this browser out: the app goes to /login.
    await saveForm(form, () => remove.mutateAsync(body), {
      saved: SETTINGS_MSG.accountDeleted,
      failed: SETTINGS_MSG.accountDeleteFailed,
    });
  };

  return (
    <Modal
      open
      onClose={onClose}
      size="sm"
      title="Delete account"
      description="This cannot be undone."
      footer={
        <ModalActions
          onCancel={onClose}
          variant="danger"
          type="submit"
          form={formId}
          isLoading={remove.isPending}
          disabled={!confirmsEmail(form.values.email, email)}
        >
          Delete account
        </ModalActions>
      }
    >
      <form id={formId} onSubmit={onSubmit} noValidate className="space-y-4">
        <TextField
          label={
            <>
              Type <span className="font-semibold break-all">{email}</span> to confirm
            </>
          }
          autoComplete="off"
          autoFocus
          {...form.bind('email')}
        />
        <CurrentPasswordField hasPassword={profile.hasPassword} {...form.bind('currentPassword')} />
      </form>
    </Modal>
  );
}
