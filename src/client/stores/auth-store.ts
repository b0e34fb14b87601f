import { createJSONStorage, type StateStorage } from 'zustand/middleware';
import type { SessionDto, UserDto } from '../../domain/schemas/auth';
import { createPersistedStore } from './persisted-store';

const REMEMBER_KEY = 'auth-remember';

/**
 * 'Remember me' decides where the session lives: localStorage (survives the browser closing)
 * or sessionStorage (this tab only). Both under the spec's key, auth-storage.
 */
const rememberAwareStorage: StateStorage = {
  getItem: (name) => localStorage.getItem(name) ?? sessionStorage.getItem(name),
  setItem: (name, value) => {
    const remember = localStorage.getItem(REMEMBER_KEY) !== 'false';
    (remember ? localStorage : sessionStorage).setItem(name, value);
    (remember ? sessionStorage : localStorage).removeItem(name);
  },
  removeItem: (name) => {
    localStorage.removeItem(name);
    sessionStorage.removeItem(name);
  },
};

export function setRememberMe(remember: boolean) {
  localStorage.setItem(REMEMBER_KEY, String(remember));
}

interface AuthState {
  user: UserDto | null;
  session: SessionDto | null;
  isAuthenticated: boolean;
  setSession: (session: SessionDto) => void;
  setUser: (user: UserDto) => void;
  signOutLocal: () => void;
}

export const useAuthStore = createPersistedStore<AuthState>(
  'auth',
  (set) => ({
    user: null,
    session: null,
    isAuthenticated: false,
    setSession: (session) => set({ session, user: session.user, isAuthenticated: true }),
    setUser: (user) => set((s) => ({ user, session: s.session ? { ...s.session, user } : s.session })),
    signOutLocal: () => set({ user: null, session: null, isAuthenticated: false }),
  }),
  { storage: createJSONStorage(() => rememberAwareStorage) },
);
