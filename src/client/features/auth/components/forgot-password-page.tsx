import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { ACCOUNT_MSG } from '../../../../domain/account-messages';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { saveForm } from '../../../lib/save-form';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useFormState } from '../../../lib/use-form-state';
import { requestPasswordReset } from '../api/account-links-api';
import { AuthCard } from './auth-card';
import { loadAuthForms } from './auth-forms';
import { AuthLink } from './auth-link';

/**
 * /forgot-password: an address, then always the same answer (whether it has an account is not told). The address
 * typed on /login comes along in the navigation state.
 */
export function ForgotPasswordPage() {
  useDocumentTitle('Forgot password');
  const from = useLocation().state as { email?: unknown } | null;
  const initial = useMemo(() => ({ email: typeof from?.email === 'string' ? from.email : '' }), [from]);
  const form = useFormState(initial);
  const [submitting, setSubmitting] = useState(false);
  const [sent, setSent] = useState(false);
  const answer = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    void loadAuthForms();
  }, []);
  useEffect(() => {
    if (sent) answer.current?.focus();
  }, [sent]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const body = form.validate((await loadAuthForms()).forgotPasswordForm);
    if (!body) return;
    setSubmitting(true);
    const done = await saveForm(form, () => requestPasswordReset(body.email), { failed: ACCOUNT_MSG.forgotPasswordFailed });
    setSubmitting(false);
    if (done) setSent(true);
  };

  return (
    <AuthCard title="Forgot password?" subtitle="We will email you a link to choose a new one">
      {sent ? (
        <div className="space-y-4">
          <p ref={answer} tabIndex={-1} role="status" className="text-center text-sm focus:outline-none">
            {ACCOUNT_MSG.forgotPasswordSent}
          </p>
          <AuthLink to="/login">Back to sign in</AuthLink>
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Forgot password">
          <TextField label="Email" type="email" autoComplete="email" autoFocus {...form.bind('email')} />
          <Button type="submit" className="w-full justify-center" size="lg" isLoading={submitting}>
            Send reset link
          </Button>
          <AuthLink to="/login">Back to sign in</AuthLink>
        </form>
      )}
    </AuthCard>
  );
}
