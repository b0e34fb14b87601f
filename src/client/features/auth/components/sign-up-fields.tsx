import type { ReactNode } from 'react';
import { passwordRequirements, type SignUpValues } from '../../../../domain/password-requirements';
import { TextField } from '../../../components/ui/field';
import type { FormState } from '../../../lib/use-form-state';
import { PasswordField, PasswordRequirements } from './password-field';

export interface SignUpFieldsProps {
  form: Pick<FormState<SignUpValues>, 'values' | 'bind'>;
  /** The form's minimum password length (6 on the login screen, 8 on /signup). */
  passwordMin: number;
  /** Text shown above the live requirements list. */
  passwordHint?: ReactNode;
  autoFocus?: boolean;
}

/** Full name, email, password with its live requirements, and confirmation: both sign-up forms. */
export function SignUpFields({ form, passwordMin, passwordHint, autoFocus }: SignUpFieldsProps) {
  const { values, bind } = form;
  return (
    <>
      <TextField label="Full name" autoComplete="name" autoFocus={autoFocus} {...bind('fullName')} />
      <TextField label="Email" type="email" autoComplete="email" {...bind('email')} />
      <PasswordField
        label="Password"
        autoComplete="new-password"
        {...bind('password')}
        hint={
          <>
            {passwordHint}
            <PasswordRequirements items={passwordRequirements(values.password, passwordMin)} />
          </>
        }
      />
      <PasswordField label="Confirm password" autoComplete="new-password" {...bind('confirmPassword')} />
    </>
  );
}
