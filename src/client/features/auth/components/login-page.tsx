import { Mail, UserPlus } from 'lucide-react';
import { lazy, Suspense, useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { MSG } from '../../../../domain/messages';
import type { SessionDto } from '../../../../domain/schemas/auth';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/field';
import { saveForm } from '../../../lib/save-form';
import { toast } from '../../../lib/toast';
import { useFormState } from '../../../lib/use-form-state';
import { setRememberMe, useAuthStore } from '../../../stores/auth-store';
import { resolveDark, useThemeStore } from '../../../stores/theme-store';
import { signInWithPassword } from '../api/auth-api';
import { openSignInError, useProviders } from '../api/google-api';
import { GoogleButton } from './google-button';
import { SsoButton } from './sso-button';
import { AuthCard } from './auth-card';
import { loadAuthForms } from './auth-forms';
import { PasswordField } from './password-field';

type Mode = 'none' | 'signin' | 'signup';

// Asked for only by accounts with two-factor sign-in on: off the page's start-up bundle (its budget).
const TwoFactorStep = lazy(() => import('./two-factor-step').then((m) => ({ default: m.TwoFactorStep })));
// Opened by 'Sign up with Email': off the start-up bundle too (its code is fetched as the mode opens).
const loadSignUpForm = () => import('./login-sign-up-form');
const LoginSignUpForm = lazy(() => loadSignUpForm().then((m) => ({ default: m.LoginSignUpForm })));

const EMPTY = { email: '', password: '', rememberMe: true };

/**
 * Reads ?error=…&error_description=… (OAuth redirects), toasts it, then cleans the URL. The
 * description is shown only when the server opens it (our callback sealed it): a hand-made link
 * gets the generic text, never its own words.
 */
function useAuthRedirectErrors() {
  useEffect(() => {
    let live = true;
    const params = new URLSearchParams(window.location.search);
    const description = params.get('error_description');
    if (params.get('error') || description) {
      void openSignInError(description).then((opened) => {
        if (!live) return;
        toast.error(opened ? MSG.authFailedWith(opened) : MSG.authFailedGeneric);
        const url = new URL(window.location.href);
        url.searchParams.delete('error');
        url.searchParams.delete('error_description');
        window.history.replaceState(null, '', url.pathname + url.search);
      });
    }
    if (window.location.hash.includes('access_token')) {
      window.history.replaceState(null, '', window.location.pathname + window.location.search);
    }
    return () => {
      live = false;
    };
  }, []);
}

/** The login page forces dark mode while it is shown. */
export function useForcedDark() {
  useEffect(() => {
    const root = document.documentElement;
    document.body.dataset.forceDark = 'true';
    root.classList.add('dark');
    return () => {
      delete document.body.dataset.forceDark;
      root.classList.toggle('dark', resolveDark(useThemeStore.getState().theme));
    };
  }, []);
}

export function LoginPage() {
  useForcedDark();
  useAuthRedirectErrors();
  const navigate = useNavigate();
  const [mode, setModeState] = useState<Mode>('none');
  const [submitting, setSubmitting] = useState(false);
  /** Set once the password was right for an account with two-factor sign-in on: the code step shows. */
  const [mfaToken, setMfaToken] = useState<string | null>(null);
  const initial = useMemo(() => EMPTY, []);
  const form = useFormState(initial);
  const { values, reset, bind } = form;
  // Directory sign-in on (LDAP, issue 41): the first field takes a username too; off, the spec's 'Email' as before.
  const providers = useProviders();
  const directory = providers.data?.ldap === true;
  const localPasswords = providers.data?.localPasswords !== false;

  useEffect(() => {
    document.title = 'Sign in · Crewboard';
  }, []);

  const setMode = (next: Mode) => {
    if (next !== 'none') void loadAuthForms();
    if (next === 'signup') void loadSignUpForm();
    reset();
    setMfaToken(null);
    setModeState(next);
  };

  const finishSignIn = (session: SessionDto) => {
    useAuthStore.getState().setSession(session);
    toast.success(MSG.welcomeBack);
    navigate('/dashboard', { replace: true });
  };

  const onSignIn = async (e: FormEvent) => {
    e.preventDefault();
    const forms = await loadAuthForms();
    const body = form.validate(directory ? forms.directorySignInForm : forms.signInForm);
    if (!body) return;
    setSubmitting(true);
    await saveForm(
      form,
      async () => {
        setRememberMe(values.rememberMe);
        const result = await signInWithPassword(body.email, body.password);
        if ('mfaToken' in result) setMfaToken(result.mfaToken);
        else finishSignIn(result.session);
      },
      { failed: MSG.invalidCredentials },
    );
    setSubmitting(false);
  };

  return (
    <AuthCard
      title={mode === 'signup' ? 'Create your account' : 'Welcome to Crewboard'}
      subtitle={mode === 'signup' ? 'Start organising your team in minutes' : 'Sign in to manage your team’s work'}
    >
      {mode === 'none' && (
        <div className="space-y-3">
          <GoogleButton />
          <SsoButton />
          <div className="flex items-center gap-3 text-xs uppercase text-slate-400" aria-hidden>
            <span className="h-px flex-1 bg-slate-700" />
            or
            <span className="h-px flex-1 bg-slate-700" />
          </div>
          <Button className="w-full justify-center" size="lg" onClick={() => setMode('signin')}>
            <Mail className="h-4 w-4" aria-hidden />
            Sign in with Email
          </Button>
          <Button className="w-full justify-center" size="lg" variant="secondary" onClick={() => setMode('signup')}>
            <UserPlus className="h-4 w-4" aria-hidden />
            Sign up with Email
          </Button>
          <p className="pt-2 text-center text-sm text-slate-300">
            New here?{' '}
            <Link to="/signup" className="font-medium text-indigo-300 underline-offset-2 hover:underline">
              Create an account
            </Link>
          </p>
        </div>
      )}

      {mode === 'signin' && !mfaToken && (
        <form onSubmit={onSignIn} noValidate className="space-y-4" aria-label="Sign in">
          {directory ? (
            <TextField label="Email or username" type="text" autoComplete="username" autoFocus {...bind('email')} />
          ) : (
            <TextField label="Email" type="email" autoComplete="email" autoFocus {...bind('email')} />
          )}
          <PasswordField label="Password" autoComplete="current-password" {...bind('password')} />
          <div className="flex items-center justify-between text-sm">
            <label className="flex items-center gap-2">
              <input
                type="checkbox"
                {...form.bindChecked('rememberMe')}
                className="h-4 w-4 rounded border-slate-500 accent-indigo-500"
              />
              Remember me
            </label>
            {localPasswords && (
              <Link
                to="/forgot-password"
                state={{ email: values.email }}
                className="text-indigo-300 underline-offset-2 hover:underline"
              >
                Forgot password?
              </Link>
            )}
          </div>
          <Button type="submit" className="w-full justify-center" size="lg" isLoading={submitting}>
            Sign in
          </Button>
          <BackToOptions onClick={() => setMode('none')} />
        </form>
      )}

      {mode === 'signin' && mfaToken && (
        <Suspense fallback={<Spinner />}>
          <TwoFactorStep mfaToken={mfaToken} onSignedIn={finishSignIn} onBack={() => setMfaToken(null)} />
        </Suspense>
      )}

      {mode === 'signup' && (
        <Suspense fallback={<Spinner />}>
          <LoginSignUpForm onBack={() => setMode('none')} backButton={<BackToOptions onClick={() => setMode('none')} />} />
        </Suspense>
      )}
    </AuthCard>
  );
}

function BackToOptions({ onClick }: { onClick: () => void }) {
  return (
    <p className="text-center">
      <button type="button" onClick={onClick} className="text-sm text-indigo-300 underline-offset-2 hover:underline">
        Back to options
      </button>
    </p>
  );
}
