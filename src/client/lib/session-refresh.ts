import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { startAutoRefresh } from '../../domain/auth-refresh';
import { STORAGE_KEYS } from '../../domain/constants';
import { useAuthStore } from '../stores/auth-store';
import { ApiError, refreshSession } from './api-client';
import { classifyRefreshError, logError } from './errors';
import { queryClient } from './query-client';

async function refreshOrThrow(): Promise<void> {
  const session = await refreshSession();
  if (!session) throw new ApiError(401, 'unauthenticated', 'unauthenticated', 'No session to refresh');
}

/**
 * Keeps the signed-in session fresh (spec §4, §9): a 30 s tick, a refresh when fewer than 3
 * ticks remain, retries with backoff, and a clean sign-out when the server refuses.
 */
export function useSessionAutoRefresh(): void {
  const navigate = useNavigate();
  useEffect(() => {
    const refresher = startAutoRefresh({
      getExpiresAt: () => useAuthStore.getState().session?.expires_at ?? null,
      refresh: refreshOrThrow,
      classify: classifyRefreshError,
      onRefused: (error) => {
        logError('session refresh refused', error);
        useAuthStore.getState().signOutLocal();
        queryClient.clear();
        navigate('/login', { replace: true });
      },
    });
    // A tab that slept (timers throttled) checks as soon as it is shown again.
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refresher.tick();
    };
    // Another tab rotated the refresh token: take the new one rather than spend a stale one.
    const onStorage = (e: StorageEvent) => {
      if (e.key === STORAGE_KEYS.auth) void useAuthStore.persist.rehydrate();
    };
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('storage', onStorage);
    return () => {
      refresher.stop();
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('storage', onStorage);
    };
  }, [navigate]);
}
