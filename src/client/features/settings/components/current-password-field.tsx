import { PasswordField } from '../../../components/ui/password-field';
import type { TextFieldProps } from '../../../components/ui/field';
import { SETTINGS_MSG } from '../../../../domain/settings-messages';

/**
 * 'Current password', asked again before a change that could hand the account to someone else (email, deletion); an
 * account without a password (Google sign-in alone) has none to give, and sees no field.
 */
export function CurrentPasswordField({ hasPassword, ...field }: { hasPassword: boolean } & Omit<TextFieldProps, 'label'>) {
  if (!hasPassword) return null;
  return <PasswordField label={SETTINGS_MSG.currentPassword} autoComplete="current-password" {...field} />;
}

/** A form's values as the API takes them: without the current password when the account has none. */
export const withCurrentPassword = <T extends { currentPassword: string }>(values: T, hasPassword: boolean) => ({
  ...values,
  currentPassword: hasPassword ? values.currentPassword : undefined,
});
