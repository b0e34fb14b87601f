import type { Theme } from '../../domain/constants';
import { createPersistedStore } from './persisted-store';

interface ThemeState {
  theme: Theme;
  setTheme: (theme: Theme) => void;
}

export const useThemeStore = createPersistedStore<ThemeState>('theme', (set) => ({
  theme: 'system',
  setTheme: (theme) => set({ theme }),
}));

export const prefersDark = () => window.matchMedia('(prefers-color-scheme: dark)').matches;

export function resolveDark(theme: Theme): boolean {
  return theme === 'dark' || (theme === 'system' && prefersDark());
}
