import type { ReactNode } from 'react';
import type { SignUpValues } from '../../../../domain/auth-forms';
import { passwordRequirements } from '../../../../domain/auth-forms';
import { TextField } from '../../../components/ui/field';
import { PasswordField, PasswordRequirements } from './password-field';

export interface SignUpFieldsProps {
  values: SignUpValues;
  errors: Partial<Record<keyof SignUpValues, string>>;
  setField: (key: keyof SignUpValues, value: string) => void;
  /** The form's minimum password length (6 on the login screen, 8 on /signup). */
  passwordMin: number;
  /** Text shown above the live requirements list. */
  passwordHint?: ReactNode;
  autoFocus?: boolean;
}

/** Full name, email, password with its live requirements, and confirmation: both sign-up forms. */
export function SignUpFields({ values, errors, setField, passwordMin, passwordHint, autoFocus }: SignUpFieldsProps) {
  return (
    <>
      <TextField
        label="Full name"
        autoComplete="name"
        autoFocus={autoFocus}
        value={values.fullName}
        onChange={(e) => setField('fullName', e.target.value)}
        error={errors.fullName}
      />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        value={values.email}
        onChange={(e) => setField('email', e.target.value)}
        error={errors.email}
      />
      <PasswordField
        label="Password"
        autoComplete="new-password"
        value={values.password}
        onChange={(e) => setField('password', e.target.value)}
        error={errors.password}
        hint={
          <>
            {passwordHint}
            <PasswordRequirements items={passwordRequirements(values.password, passwordMin)} />
          </>
        }
      />
      <PasswordField
        label="Confirm password"
        autoComplete="new-password"
        value={values.confirmPassword}
        onChange={(e) => setField('confirmPassword', e.target.value)}
        error={errors.confirmPassword}
      />
    </>
  );
}
