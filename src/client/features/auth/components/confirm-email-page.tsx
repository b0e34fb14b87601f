import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { MSG } from '../../../../domain/messages';
import { SETTINGS_MSG } from '../../../../domain/settings-messages';
import { ACCOUNT_MSG } from '../../../../domain/account-messages';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { errorText, isError, logError } from '../../../lib/errors';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useAuthStore } from '../../../stores/auth-store';
import { useLinkCheck } from '../api/account-links-api';
import { confirmEmailChange } from '../api/confirm-email-change';
import { AuthCard } from './auth-card';
import { AuthLink } from './auth-link';
import { refreshSignedInUser } from './verify-email-page';

type State = { is: 'ready' | 'confirming' | 'confirmed' | 'invalid' } | { is: 'failed'; message: string };

/**
 * /confirm-email?token=…: moves the account to the new address the link was sent to. A button does it, not the
 * page's load: a mail scanner that opens links spends nothing. The page does check, without spending it, that the link
 * still works, so that a used or expired one says so at once instead of offering the button.
 */
export function ConfirmEmailPage() {
  useDocumentTitle('Confirm email');
  const token = useSearchParams()[0].get('token');
  const [state, setState] = useState<State>({ is: token ? 'ready' : 'invalid' });
  const check = useLinkCheck('change_email', token);
  const view: State = state.is === 'ready' && check === 'invalid' ? { is: 'invalid' } : state;
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated);
  const user = useAuthStore((s) => s.user);
  const outcome = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (view.is !== 'ready' && view.is !== 'confirming') outcome.current?.focus();
  }, [view.is]);

  const confirm = async () => {
    if (!token) return;
    setState({ is: 'confirming' });
    try {
      await confirmEmailChange(token);
      await refreshSignedInUser();
      setState({ is: 'confirmed' });
    } catch (error) {
      logError('confirming the email change failed', error);
      if (isError(error, 'link_invalid')) setState({ is: 'invalid' });
      else setState({ is: 'failed', message: errorText(error, SETTINGS_MSG.emailChangeConfirmFailed) });
    }
  };

  const text =
    view.is === 'confirmed'
      ? isAuthenticated && user
        ? SETTINGS_MSG.emailChanged(user.email)
        : SETTINGS_MSG.emailChangedSignIn
      : view.is === 'invalid'
        ? MSG.linkInvalid
        : view.is === 'failed'
          ? view.message
          : '';
  return (
    <AuthCard
      title="Confirm email"
      subtitle={view.is === 'ready' || view.is === 'confirming' ? 'Use this address for your account' : undefined}
    >
      {view.is === 'ready' && check === 'checking' ? (
        <Spinner label={ACCOUNT_MSG.checkingLink} />
      ) : view.is === 'ready' || view.is === 'confirming' ? (
        <div className="space-y-4">
          <Button
            className="w-full justify-center"
            size="lg"
            onClick={() => void confirm()}
            isLoading={state.is === 'confirming'}
          >
            Confirm new email address
          </Button>
          <AuthLink to={isAuthenticated ? '/dashboard' : '/login'}>Cancel</AuthLink>
        </div>
      ) : (
        <div className="space-y-4">
          <p
            ref={outcome}
            tabIndex={-1}
            role={view.is === 'confirmed' ? 'status' : 'alert'}
            className="text-center text-sm focus:outline-none"
          >
            {text}
          </p>
          {view.is === 'invalid' && (
            <p className="text-center text-sm text-slate-600 dark:text-slate-300">Ask for a new link in Settings → Account.</p>
          )}
          {isAuthenticated ? (
            <AuthLink to="/settings#account">Back to Settings</AuthLink>
          ) : (
            <AuthLink to="/login">Sign in</AuthLink>
          )}
        </div>
      )}
    </AuthCard>
  );
}
