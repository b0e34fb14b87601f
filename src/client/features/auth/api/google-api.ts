import { useEffect, useState } from 'react';
import { MSG } from '../../../../domain/messages';
import type { SessionDto } from '../../../../domain/schemas/auth';
import { OIDC_CODE_PARAM } from '../../../../domain/constants';
import type { AuthProvidersDto, OidcErrorDto } from '../../../../domain/schemas/oidc';
import { api } from '../../../lib/api-client';
import { errorText, logError } from '../../../lib/failure';
import { toast } from '../../../lib/toast';
import { useAuthStore } from '../../../stores/auth-store';

export const getProviders = () => api.get<AuthProvidersDto>('/api/auth/providers', { anonymous: true });

let providers: Promise<AuthProvidersDto> | null = null;

/**
 * Which sign-in providers the server has configured. A plain fetch, cached for the page's life:
 * the sign-in pages do not load TanStack Query (it lives in the lazily loaded app shell).
 */
export function useProviders() {
  const [state, setState] = useState<{ data: AuthProvidersDto | undefined; isLoading: boolean; isError: boolean }>({
    data: undefined,
    isLoading: true,
    isError: false,
  });
  useEffect(() => {
    let live = true;
    loadProviders().then(
      (data) => live && setState({ data, isLoading: false, isError: false }),
      () => live && setState({ data: undefined, isLoading: false, isError: true }),
    );
    return () => {
      live = false;
    };
  }, []);
  /** Tries again (after a failed first load). */
  const refetch = async () => {
    const data = await loadProviders().catch(() => undefined);
    setState({ data, isLoading: false, isError: !data });
    return { data };
  };
  return { ...state, refetch };
}

function loadProviders(): Promise<AuthProvidersDto> {
  providers ??= getProviders().catch((error) => {
    providers = null;
    throw error;
  });
  return providers;
}

export const exchangeGoogleCode = (code: string) =>
  api.post<SessionDto>('/api/auth/google/exchange', { code }, { anonymous: true });

/**
 * The description of a failed sign-in that our own callback sealed into ?error_description, or null
 * for anything else: a hand-made link's text is never shown (decision 0007).
 */
export async function openSignInError(sealed: string | null): Promise<string | null> {
  if (!sealed) return null;
  try {
    const { description } = await api.post<OidcErrorDto>(
      '/api/auth/google/error',
      { error_description: sealed },
      { anonymous: true },
    );
    return description;
  } catch {
    return null; // not ours, expired, or the server unreachable: the generic text
  }
}

let completing: Promise<void> | null = null;

/**
 * After a Google sign-in the server sends the browser to the site root with a one-time code in
 * the hash. Exchange it for a session (once, even if called twice) and clean the URL.
 * A failure shows the spec's 'Authentication failed: …' toast; the user stays signed out.
 * A browser already signed in keeps its account: the code is dropped, with a toast (decision 0007).
 */
export function completeGoogleSignIn(): Promise<void> {
  if (completing) return completing;
  const code = new URLSearchParams(window.location.hash.slice(1)).get(OIDC_CODE_PARAM);
  if (!code) return Promise.resolve();
  window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  const { isAuthenticated, user } = useAuthStore.getState();
  if (isAuthenticated && user) {
    toast.error(MSG.googleAlreadySignedIn(user.email));
    return Promise.resolve();
  }
  completing = (async () => {
    try {
      useAuthStore.getState().setSession(await exchangeGoogleCode(code));
    } catch (error) {
      logError('google sign-in failed', error);
      const reason = errorText(error, '');
      toast.error(reason ? MSG.authFailedWith(reason) : MSG.authFailedGeneric);
    }
  })();
  return completing;
}
