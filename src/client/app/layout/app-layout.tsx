import { QueryClientProvider } from '@tanstack/react-query';
import { type ComponentType, lazy, Suspense, useEffect } from 'react';
import { Outlet } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import { VerifyEmailBanner } from '../../features/auth/components/verify-email-banner';
import { useSignOut } from '../../features/auth/use-auth';
import { PaletteHost } from '../../features/palette/components/palette-host';
import { queryClient } from '../../lib/query-client';
import { useSessionAutoRefresh } from '../../lib/session-refresh';
import { useRealtime } from '../../lib/realtime';
import { useSidebarStore } from '../../stores/ui-store';
import { RouteErrorBoundary } from './route-error-boundary';
import { Sidebar } from './sidebar';
import { TopBar } from './top-bar';
import { QuickAddHost } from '../routes/quick-add-host';
import type { TasksPageSlots } from '../../features/tasks/components/tasks-page';

// The Tasks page's saved-views controls (another feature's), lent to it through the outlet; loaded after the board
// (and left out if they cannot load: the board works without them).
const loadSavedViews = () => import('../../features/saved-views/components/saved-views-controls');
const SavedViewsControls = lazy(() =>
  loadSavedViews().then(
    (m): { default: ComponentType } => ({ default: m.SavedViewsControls }),
    () => ({ default: () => null }),
  ),
);
// The command palette, with what it shows from other features bound in: the saved views (from the same module as the
// Tasks page's menu: one chunk for both) and sign-out. Fetched when first wanted, never with the start-up.
const loadPalette = () =>
  Promise.all([import('../../features/palette/components/command-palette'), loadSavedViews()]).then(([palette, views]) =>
    palette.composePalette({ useViews: views.usePaletteViews, viewIcon: views.VIEW_ICON, useSignOut }),
  );
// A project's 'Share' on its board (issue 40): the sharing dialog loads with the button, after the board.
const ShareButton = lazy(() =>
  import('../../features/sharing/components/share-button').then(
    (m): { default: ComponentType<{ projectId: string }> } => ({ default: m.ShareButton }),
    () => ({ default: () => null }),
  ),
);
const OUTLET_CONTEXT: TasksPageSlots = {
  filterTools: (
    <Suspense fallback={null}>
      <SavedViewsControls />
    </Suspense>
  ),
  projectTools: (projectId) => (
    <Suspense fallback={null}>
      <ShareButton projectId={projectId} />
    </Suspense>
  ),
};

/** The signed-in app. TanStack Query lives here, so the sign-in pages' bundle does not carry it. */
export function AppLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <AppShell />
    </QueryClientProvider>
  );
}

function AppShell() {
  const collapsed = useSidebarStore((s) => s.collapsed);
  const setCollapsed = useSidebarStore((s) => s.setCollapsed);
  useSessionAutoRefresh();
  useRealtime();

  // Narrow screens start with the sidebar out of the way.
  useEffect(() => {
    if (window.innerWidth < 1024) setCollapsed(true);
  }, [setCollapsed]);

  // Escape closes the expanded sidebar overlay on narrow screens.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && window.innerWidth < 1024 && !useSidebarStore.getState().collapsed) setCollapsed(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setCollapsed]);

  return (
    <div className="relative flex h-screen overflow-hidden">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-slate-900"
      >
        Skip to content
      </a>
      {/* On narrow screens the expanded sidebar overlays the page. */}
      <div className={collapsed ? 'hidden lg:flex' : 'fixed inset-y-0 left-0 z-30 flex lg:static'}>
        <Sidebar />
      </div>
      {!collapsed && (
        <div className="fixed inset-0 z-20 bg-slate-900/40 lg:hidden" aria-hidden onClick={() => setCollapsed(true)} />
      )}
      <div className="flex min-w-0 flex-1 flex-col">
        <TopBar />
        <VerifyEmailBanner />
        {/* Focusable so keyboard users can scroll it even when a page holds no links or buttons. */}
        <main
          id="main"
          data-scroll-root
          className="flex-1 overflow-y-auto p-4 focus-visible:-outline-offset-2 sm:p-6"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1, axe scrollable-region-focusable)
          tabIndex={0}
        >
          <RouteErrorBoundary>
            <Suspense fallback={<Spinner />}>
              <Outlet context={OUTLET_CONTEXT} />
            </Suspense>
          </RouteErrorBoundary>
        </main>
      </div>
      <QuickAddHost />
      <PaletteHost load={loadPalette} />
    </div>
  );
}
