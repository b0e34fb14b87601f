import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { logError } from '../../lib/errors';
import { queryClient } from '../../lib/query-client';
import { useAuthStore } from '../../stores/auth-store';
import { signOut } from './api/auth-api';

export function useSignOut() {
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await signOut();
    } catch (error) {
      // Logout errors are logged only (spec §8).
      logError('sign out failed', error);
    }
    useAuthStore.getState().signOutLocal();
    queryClient.clear();
    navigate('/login', { replace: true });
  }, [navigate]);
}
