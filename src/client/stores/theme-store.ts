import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { STORAGE_KEYS, type Theme } from '../../domain/constants';

interface ThemeState {
  theme: Theme;
  setTheme: (theme: Theme) => void;
}

export const useThemeStore = create<ThemeState>()(
  persist((set) => ({ theme: 'system', setTheme: (theme) => set({ theme }) }), { name: STORAGE_KEYS.theme }),
);

export const prefersDark = () => window.matchMedia('(prefers-color-scheme: dark)').matches;

export function resolveDark(theme: Theme): boolean {
  return theme === 'dark' || (theme === 'system' && prefersDark());
}
