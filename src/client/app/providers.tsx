import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Toaster } from 'sonner';
import { LIMITS } from '../../domain/constants';
import { queryClient } from '../lib/query-client';
import { resolveDark, useThemeStore } from '../stores/theme-store';

/** Applies the theme: 'system' follows the OS preference and toggles the dark class. */
function ThemeSync() {
  const theme = useThemeStore((s) => s.theme);
  useEffect(() => {
    const apply = () => {
      // The login and signup pages force dark mode themselves.
      if (document.body.dataset.forceDark === 'true') return;
      document.documentElement.classList.toggle('dark', resolveDark(theme));
    };
    apply();
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [theme]);
  return null;
}

export function Providers({ children }: { children: ReactNode }) {
  const theme = useThemeStore((s) => s.theme);
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeSync />
      {children}
      <Toaster position="top-right" duration={LIMITS.toastMs} richColors closeButton theme={theme} />
    </QueryClientProvider>
  );
}
