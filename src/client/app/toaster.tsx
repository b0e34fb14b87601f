import { useEffect, useRef, type ReactNode } from 'react';
import { Toaster as Sonner } from 'sonner';
import { LIMITS } from '../../domain/constants';
import { useThemeStore } from '../stores/theme-store';

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

/**
 * Where toasts show. Loaded beside the first render (Providers), in the 'toasts' chunk with sonner (vite.config.ts),
 * not in the sign-in page's start-up script. A toast raised before it mounts shows when it does (sonner replays
 * the active toasts to a Toaster that subscribes).
 */
export function Toaster() {
  const theme = useThemeStore((s) => s.theme);
  return (
    <ToastRegion>
      <Sonner
        position="top-right"
        offset={TOAST_OFFSET}
        mobileOffset={TOAST_OFFSET}
        duration={LIMITS.toastMs}
        richColors
        closeButton
        theme={theme}
      />
    </ToastRegion>
  );
}
