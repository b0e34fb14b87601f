import { type ComponentType, lazy, Suspense, useEffect, type ReactNode } from 'react';
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

/**
 * The toasts' host and library load beside the first render, off the start-up script (the sign-in page's budget).
 * Should that chunk fail to load, the app still runs, without toasts.
 */
const Toaster = lazy(async (): Promise<{ default: ComponentType }> => {
  try {
    return { default: (await import('./toaster')).Toaster };
  } catch {
    return { default: () => null };
  }
});

export function Providers({ children }: { children: ReactNode }) {
  return (
    <>
      <ThemeSync />
      {children}
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </>
  );
}
