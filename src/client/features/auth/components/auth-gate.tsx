import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import type { SystemRole } from '../../../../domain/constants';
import { MSG } from '../../../../domain/messages';
import { Spinner } from '../../../components/ui/spinner';
import { classifyRefreshError, logError } from '../../../lib/failure';

import { useAuthStore } from '../../../stores/auth-store';
import { getCurrentUser } from '../api/auth-api';
import { completeGoogleSignIn } from '../api/google-api';

let checked = false;

/** A session check already under way, and the access token it was started with. */
let early: { token: string; user: ReturnType<typeof getCurrentUser> } | null = null;

/**
 * Starts the check of a stored session right away, from the entry script, instead of after React's first
 * render and commit (a cold load of /tasks sent it 0.5 s after the board request, behind the evaluation of the
 * page's chunks). AuthInit takes its answer if the session is still the one it was started for.
 */
export function checkStoredSessionEarly(): void {
  const { session } = useAuthStore.getState();
  if (!session || early || checked) return;
  const user = getCurrentUser();
  user.catch(() => {}); // AuthInit handles the failure when it takes the answer.
  early = { token: session.access_token, user };
}

function sessionUser(accessToken: string) {
  const started = early?.token === accessToken ? early.user : null;
  early = null;
  return started ?? getCurrentUser();
}

/** Checks the stored session once at start, showing 'Checking authentication...' meanwhile. */
export function AuthInit({ children }: { children: ReactNode }) {
  const [ready, setReady] = useState(checked);
  useEffect(() => {
    if (checked) return;
    let cancelled = false;
    (async () => {
      const { session } = useAuthStore.getState();
      if (session) {
        try {
          const user = await sessionUser(session.access_token);
          useAuthStore.getState().setUser(user);
        } catch (error) {
          logError('session check failed', error);
          if (classifyRefreshError(error) === 'refused') {
            useAuthStore.getState().signOutLocal();
          }
          // Any other failure (server down): fall back to the stored session data.
        }
      }
      // Back from a Google sign-in: only once the stored session is known to be dead or absent may
      // the code open a new one; a live session is never replaced (decision 0007).
      await completeGoogleSignIn();
      checked = true;
      if (!cancelled) setReady(true);
    })();
    return () => {
      cancelled = true;
    };
  }, []);
  if (!ready) return <Spinner label={MSG.checkingAuth} className="min-h-screen" />;
  return <>{children}</>;
}

/** Authenticated routes: unauthenticated → /login; a required role that differs → /dashboard. */
export function RequireAuth({ children, requiredRole }: { children: ReactNode; requiredRole?: SystemRole }) {
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated);
  const userRole = useAuthStore((s) => s.user?.role);
  const location = useLocation();
  if (!isAuthenticated) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (requiredRole && userRole !== requiredRole) return <Navigate to="/dashboard" replace />;
  return <>{children}</>;
}

/** /login and /signup: an authenticated user goes to /dashboard. */
export function PublicOnly({ children }: { children: ReactNode }) {
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated);
  if (isAuthenticated) return <Navigate to="/dashboard" replace />;
  return <>{children}</>;
}
