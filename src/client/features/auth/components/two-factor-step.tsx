import { type FormEvent, useMemo, useState } from 'react';
import { MSG } from '../../../../domain/messages';
import type { SessionDto } from '../../../../domain/schemas/auth';
import { authCodeForm, SECURITY_MSG } from '../../../../domain/schemas/security';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { isError } from '../../../lib/errors';
import { saveForm } from '../../../lib/save-form';
import { useFormState } from '../../../lib/use-form-state';
import { signInWithCode } from '../api/sign-in-with-code';

export interface TwoFactorStepProps {
  /** The token the password step answered with. */
  mfaToken: string;
  onSignedIn: (session: SessionDto) => void;
  /** Back to the password (also when the step has expired). */
  onBack: () => void;
}

/**
 * The sign-in's second step for an account with two-factor sign-in on: 'Authentication code' (from the app,
 * or a recovery code). Loaded only when asked for, off the sign-in page's start-up bundle.
 */
export function TwoFactorStep({ mfaToken, onSignedIn, onBack }: TwoFactorStepProps) {
  const initial = useMemo(() => ({ code: '' }), []);
  const form = useFormState(initial);
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const body = form.validate(authCodeForm);
    if (!body) return;
    setSubmitting(true);
    // A wrong code is told beside the field (the server names it); anything else in a toast.
    await saveForm(
      form,
      async () => onSignedIn(await signInWithCode(mfaToken, body.code)),
      { failed: MSG.invalidCredentials },
      { fieldErrorsOnly: true, onFailed: (error) => isError(error, 'mfa_token_invalid') && onBack() },
    );
    setSubmitting(false);
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Two-factor authentication">
      <p className="text-sm text-slate-300">
        Enter the 6-digit code from your authenticator app. Lost your device? Use one of your recovery codes.
      </p>
      <TextField
        label={SECURITY_MSG.authCode}
        autoComplete="one-time-code"
        autoCapitalize="none"
        spellCheck={false}
        autoFocus
        {...form.bind('code')}
      />
      <Button type="submit" className="w-full justify-center" size="lg" isLoading={submitting}>
        Verify
      </Button>
      <p className="text-center">
        <button type="button" onClick={onBack} className="text-sm text-indigo-300 underline-offset-2 hover:underline">
          Back to sign in
        </button>
      </p>
    </form>
  );
}
