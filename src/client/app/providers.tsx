import { useEffect, useRef, type ReactNode } from 'react';
import { Toaster } from 'sonner';
import { LIMITS } from '../../domain/constants';
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
 * Sonner remembers where focus came from when it enters a toast and forces it back there when it leaves, so Tab
 * loops between the page's last control and the toasts until they expire. Hiding focus-in from its handler
 * keeps toasts reachable (and still announced by their live region) without that loop.
 */
function ToastRegion({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const stop = (e: FocusEvent) => e.stopPropagation();
    el.addEventListener('focusin', stop);
    return () => el.removeEventListener('focusin', stop);
  }, []);
  return <div ref={ref}>{children}</div>;
}

/** Toasts open below the top bar (styles.css), not over its bell, theme and user menus. */
const TOAST_OFFSET = { top: 'calc(var(--top-bar-height) + 0.75rem)' };

export function Providers({ children }: { children: ReactNode }) {
  const theme = useThemeStore((s) => s.theme);
  return (
    <>
      <ThemeSync />
      {children}
      <ToastRegion>
        <Toaster
          position="top-right"
          offset={TOAST_OFFSET}
          mobileOffset={TOAST_OFFSET}
          duration={LIMITS.toastMs}
          richColors
          closeButton
          theme={theme}
        />
      </ToastRegion>
    </>
  );
}
