import { type FormEvent, useMemo, useState } from 'react';
import { SETTINGS_MSG } from '../../../../domain/settings-messages';
import { changeEmailInput, type ProfileDto } from '../../../../domain/schemas/me';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { saveForm } from '../../../lib/save-form';
import { useFormState } from '../../../lib/use-form-state';
import { useRequestEmailChange } from '../api/change-email';
import { CurrentPasswordField, withCurrentPassword } from './current-password-field';
import { SettingsPanel } from './settings-section';

/** A new address, confirmed by a link sent to it: until it is opened, the account keeps its address. */
export function ChangeEmailPanel({ profile }: { profile: ProfileDto }) {
  const initial = useMemo(() => ({ email: '', currentPassword: '' }), []);
  const form = useFormState(initial);
  const request = useRequestEmailChange();
  const [sentTo, setSentTo] = useState<string | null>(null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const body = form.validate(changeEmailInput, withCurrentPassword(form.values, profile.hasPassword));
    if (!body) return;
    const sent = await saveForm(form, () => request.mutateAsync(body), {
      saved: SETTINGS_MSG.emailChangeSent(body.email),
      failed: SETTINGS_MSG.emailChangeFailed,
    });
    if (!sent) return;
    setSentTo(body.email);
    form.reset();
  };

  const { user } = profile;
  return (
    <SettingsPanel
      title="Email address"
      description={
        <p className="flex flex-wrap items-center gap-2">
          <span>
            You sign in with <strong className="font-medium break-all text-slate-900 dark:text-slate-100">{user.email}</strong>
          </span>
          <Badge tone={user.emailVerified ? 'success' : 'warning'}>{user.emailVerified ? 'Verified' : 'Not verified'}</Badge>
        </p>
      }
    >
      <form onSubmit={onSubmit} noValidate className="max-w-lg space-y-4" aria-label="Change email">
        <TextField label="New email" type="email" autoComplete="email" {...form.bind('email')} />
        <CurrentPasswordField hasPassword={profile.hasPassword} {...form.bind('currentPassword')} />
        {sentTo && (
          <p role="status" className="rounded-lg bg-sky-50 p-3 text-sm text-sky-900 dark:bg-sky-950 dark:text-sky-200">
            {SETTINGS_MSG.emailChangeSent(sentTo)}
          </p>
        )}
        <Button type="submit" variant="secondary" isLoading={request.isPending}>
          Send confirmation link
        </Button>
      </form>
    </SettingsPanel>
  );
}
