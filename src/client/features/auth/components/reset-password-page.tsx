import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { LIMITS } from '../../../../domain/constants';
import { MSG } from '../../../../domain/messages';
import { ACCOUNT_MSG } from '../../../../domain/account-messages';
import { passwordRequirements } from '../../../../domain/password-requirements';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { isError, toastError } from '../../../lib/errors';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useFormState } from '../../../lib/use-form-state';
import { useAuthStore } from '../../../stores/auth-store';
import { resetPassword, useLinkCheck } from '../api/account-links-api';
import { AuthCard } from './auth-card';
import { loadAuthForms } from './auth-forms';
import { AuthLink } from './auth-link';
import { PasswordField, PasswordRequirements } from './password-field';

/** A browser signed in when its account's password was reset has lost its session: it forgets it too. */
function forgetLocalSession() {
  if (!useAuthStore.getState().isAuthenticated) return;
  useAuthStore.getState().signOutLocal();
  void import('../../../lib/query-client').then(({ queryClient }) => queryClient.clear());
}

/**
 * /reset-password?token=…: a new password by the /signup page's rules, then /login. A used, expired or missing link
 * says so, with the way to ask for a new one: checked when the page opens (without spending the link), and again by
 * the reset itself.
 */
export function ResetPasswordPage() {
  useDocumentTitle('Reset password');
  const navigate = useNavigate();
  const token = useSearchParams()[0].get('token') ?? '';
  const initial = useMemo(() => ({ password: '', confirmPassword: '' }), []);
  const form = useFormState(initial);
  const [submitting, setSubmitting] = useState(false);
  const check = useLinkCheck('reset_password', token || null);
  const [spent, setSpent] = useState(false);
  const invalid = check === 'invalid' || spent;
  const notice = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    void loadAuthForms();
  }, []);
  useEffect(() => {
    if (invalid) notice.current?.focus();
  }, [invalid]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const body = form.validate((await loadAuthForms()).resetPasswordForm);
    if (!body) return;
    setSubmitting(true);
    try {
      await resetPassword(token, body.password);
      forgetLocalSession();
      toast.success(ACCOUNT_MSG.passwordResetDone);
      navigate('/login', { replace: true });
    } catch (error) {
      if (isError(error, 'link_invalid')) {
        setSpent(true);
        return;
      }
      if (error instanceof ApiError) form.showFieldErrors(error.fields);
      toastError(error, ACCOUNT_MSG.passwordResetFailed);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthCard title="Reset password" subtitle={invalid ? undefined : 'Choose a new password for your account'}>
      {check === 'checking' ? (
        <Spinner label={ACCOUNT_MSG.checkingLink} />
      ) : invalid ? (
        <div className="space-y-4">
          <p ref={notice} tabIndex={-1} role="alert" className="text-center text-sm focus:outline-none">
            {MSG.linkInvalid}
          </p>
          <AuthLink to="/forgot-password">Send me a new link</AuthLink>
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Reset password">
          <PasswordField
            label="New password"
            autoComplete="new-password"
            autoFocus
            {...form.bind('password')}
            hint={<PasswordRequirements items={passwordRequirements(form.values.password, LIMITS.signupPasswordMin)} />}
          />
          <PasswordField label="Confirm password" autoComplete="new-password" {...form.bind('confirmPassword')} />
          <Button type="submit" className="w-full justify-center" size="lg" isLoading={submitting}>
            Reset password
          </Button>
          <AuthLink to="/login">Back to sign in</AuthLink>
        </form>
      )}
    </AuthCard>
  );
}
