import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { MSG } from '../../../../domain/messages';
import { ACCOUNT_MSG } from '../../../../domain/account-messages';
import { Spinner } from '../../../components/ui/spinner';
import { errorText, isError, logError } from '../../../lib/errors';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useAuthStore } from '../../../stores/auth-store';
import { verifyEmail } from '../api/account-links-api';
import { getCurrentUser } from '../api/auth-api';
import { AuthCard } from './auth-card';
import { AuthLink } from './auth-link';
import { ResendVerificationButton } from './resend-verification-button';

type State = { is: 'verifying' } | { is: 'verified' } | { is: 'invalid' } | { is: 'failed'; message: string };

/** One request per link, however often the page's effect runs (a link is single use: a second call would fail it). */
const attempts = new Map<string, Promise<void>>();
function verifyOnce(token: string): Promise<void> {
  let attempt = attempts.get(token);
  if (!attempt) {
    attempt = verifyEmail(token);
    attempts.set(token, attempt);
    attempt.catch(() => attempts.delete(token));
  }
  return attempt;
}

/** A signed-in browser learns at once that its address is verified (the app's banner goes), or changed (confirm-email-page). */
export async function refreshSignedInUser() {
  if (!useAuthStore.getState().isAuthenticated) return;
  try {
    useAuthStore.getState().setUser(await getCurrentUser());
  } catch (error) {
    logError('refreshing the user failed', error);
  }
}

/** /verify-email?token=…: spends the emailed link and says how it went. */
export function VerifyEmailPage() {
  useDocumentTitle('Verify email');
  const token = useSearchParams()[0].get('token');
  const [state, setState] = useState<State>(token ? { is: 'verifying' } : { is: 'invalid' });
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated);
  const outcome = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (!token) return;
    let live = true;
    verifyOnce(token).then(
      async () => {
        await refreshSignedInUser();
        if (live) setState({ is: 'verified' });
      },
      (error) => {
        if (!live) return;
        if (isError(error, 'link_invalid')) setState({ is: 'invalid' });
        else setState({ is: 'failed', message: errorText(error, MSG.loadFailed) });
      },
    );
    return () => {
      live = false;
    };
  }, [token]);

  useEffect(() => {
    if (state.is !== 'verifying') outcome.current?.focus();
  }, [state.is]);

  const onward = isAuthenticated ? (
    <AuthLink to="/dashboard">Continue to Crewboard</AuthLink>
  ) : (
    <AuthLink to="/login">Sign in</AuthLink>
  );
  return (
    <AuthCard title="Verify email">
      {state.is === 'verifying' ? (
        <Spinner label={ACCOUNT_MSG.verifyingEmail} />
      ) : (
        <div className="space-y-4">
          <p
            ref={outcome}
            tabIndex={-1}
            role={state.is === 'verified' ? 'status' : 'alert'}
            className="text-center text-sm focus:outline-none"
          >
            {state.is === 'verified' ? ACCOUNT_MSG.emailVerified : state.is === 'invalid' ? MSG.linkInvalid : state.message}
          </p>
          {state.is === 'invalid' && isAuthenticated && (
            <div className="flex justify-center">
              <ResendVerificationButton />
            </div>
          )}
          {state.is === 'invalid' && !isAuthenticated && (
            <p className="text-center text-sm text-slate-600 dark:text-slate-300">Sign in to ask for a new link.</p>
          )}
          {onward}
        </div>
      )}
    </AuthCard>
  );
}
