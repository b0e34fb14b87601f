import { type FormEvent, useMemo } from 'react';
import { Link } from 'react-router';
import { changePasswordForm } from '../../../../domain/auth-forms';
import { LIMITS } from '../../../../domain/constants';
import { SECURITY_MSG } from '../../../../domain/schemas/security';
import { SETTINGS_MSG } from '../../../../domain/settings-messages';
import { passwordRequirements } from '../../../../domain/password-requirements';
import { Button } from '../../../components/ui/button';
import { PasswordField, PasswordRequirements } from '../../../components/ui/password-field';
import { saveForm } from '../../../lib/save-form';
import { useFormState } from '../../../lib/use-form-state';
import { useChangePassword } from '../api/change-password';
import { SettingsPanel } from './settings-section';

/** The current password, then a new one by the /signup rules; other sessions are signed out, this one stays. */
export function ChangePasswordPanel({ hasPassword }: { hasPassword: boolean }) {
  // The box 'Also revoke API tokens and calendar links' starts ticked (issue 35).
  const initial = useMemo(() => ({ currentPassword: '', password: '', confirmPassword: '', revokeTokens: true }), []);
  const form = useFormState(initial);
  const change = useChangePassword();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const body = form.validate(changePasswordForm);
    if (!body) return;
    const { confirmPassword: _confirm, ...input } = body;
    const changed = await saveForm(form, () => change.mutateAsync(input), {
      saved: SETTINGS_MSG.passwordChanged,
      failed: SETTINGS_MSG.passwordChangeFailed,
    });
    if (changed) form.reset();
  };

  return (
    <SettingsPanel title={SETTINGS_MSG.changePassword} description="Changing it signs you out on every other device.">
      {hasPassword ? (
        <form onSubmit={onSubmit} noValidate className="max-w-lg space-y-4" aria-label={SETTINGS_MSG.changePassword}>
          <PasswordField label={SETTINGS_MSG.currentPassword} autoComplete="current-password" {...form.bind('currentPassword')} />
          <PasswordField
            label={SETTINGS_MSG.newPassword}
            autoComplete="new-password"
            {...form.bind('password')}
            hint={<PasswordRequirements items={passwordRequirements(form.values.password, LIMITS.signupPasswordMin)} />}
          />
          <PasswordField label={SETTINGS_MSG.confirmPassword} autoComplete="new-password" {...form.bind('confirmPassword')} />
          <label className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
            <input
              type="checkbox"
              {...form.bindChecked('revokeTokens')}
              className="h-4 w-4 rounded border-slate-500 accent-brand-600 dark:accent-indigo-400"
            />
            {SECURITY_MSG.alsoRevokeTokens}
          </label>
          <Button type="submit" isLoading={change.isPending}>
            {SETTINGS_MSG.changePassword}
          </Button>
        </form>
      ) : (
        <p className="text-sm text-slate-700 dark:text-slate-200">
          Your account signs in with Google and has no password.{' '}
          <Link to="/forgot-password" className="font-medium text-brand-700 underline underline-offset-2 dark:text-indigo-300">
            Set a password by email
          </Link>
          .
        </p>
      )}
    </SettingsPanel>
  );
}
