import { type ComponentType, lazy, Suspense, useState } from 'react';
import { createBrowserRouter, Navigate, Outlet } from 'react-router';
import { AuthInit, checkStoredSessionEarly, PublicOnly, RequireAuth } from '../features/auth/components/auth-gate';
import { LoginPage } from '../features/auth/components/login-page';
import { Spinner } from '../components/ui/spinner';
import { primeBoard } from '../features/tasks/api/prefetch-board';
import { useAuthStore } from '../stores/auth-store';

// Route-level code splitting: the sign-in pages do not load the app shell, and each heavy page
// loads when first visited.
const loadAppLayout = () => import('./layout/app-layout');
const pages = () => import('./routes/pages');
const loadTasks = () => import('../features/tasks/components/tasks-page');
const loadProjects = () => import('../features/projects/components/projects-page');
const loadTeams = () => import('../features/teams/components/teams-page');
const loadSettings = () => import('../features/settings/components/settings-page');
const loadMyWork = () => import('./routes/my-work-route');
const loadCalendar = () => import('../features/calendar/components/calendar-page');
// The charts' library loads with this page only (never with /tasks).
const loadAnalytics = () => import('../features/analytics/components/analytics-page');
const loadTimeline = () => import('./routes/timeline-route');
const loadTimesheet = () => import('../features/timesheet/components/timesheet-page');

/**
 * A page loaded with its chunk (React.lazy), drawn straight away, without suspending, when the chunk is already in.
 * A lazy component suspends at its first render even then, and React 19 holds back what a Suspense boundary reveals
 * until 300 ms after the fallback it replaced was shown: on a cold load of /tasks the drawn board waited ~120 ms for
 * that timer (Chromium trace). Each mounted page keeps the component it started with.
 */
function lazyPage<M>(load: () => Promise<M>, pick: (m: M) => ComponentType) {
  let loaded: ComponentType | undefined;
  const take = () =>
    load().then((m) => {
      loaded = pick(m);
      return loaded;
    });
  const Lazy = lazy(() => take().then((page) => ({ default: page })));
  function Page() {
    const [Component] = useState<ComponentType>(() => loaded ?? Lazy);
    return <Component />;
  }
  return Object.assign(Page, { load: take });
}

const AppLayout = lazyPage(loadAppLayout, (m) => m.AppLayout);
const DashboardRoute = lazyPage(pages, (m) => m.DashboardRoute);
const NotFoundRoute = lazy(() => pages().then((m) => ({ default: m.NotFoundRoute })));

const TasksPage = lazyPage(loadTasks, (m) => m.TasksPage);
const ProjectsPage = lazyPage(loadProjects, (m) => m.ProjectsPage);
const TeamsPage = lazyPage(loadTeams, (m) => m.TeamsPage);
const SettingsPage = lazyPage(loadSettings, (m) => m.SettingsPage);
const MyWorkPage = lazyPage(loadMyWork, (m) => m.MyWorkRoute);
const CalendarPage = lazyPage(loadCalendar, (m) => m.CalendarPage);
const AnalyticsPage = lazyPage(loadAnalytics, (m) => m.AnalyticsPage);
const TimelinePage = lazyPage(loadTimeline, (m) => m.TimelineRoute);
const TimesheetPage = lazyPage(loadTimesheet, (m) => m.TimesheetPage);
const loadNotes = () => import('../features/notes/components/notes-page');
const loadNote = () => import('../features/notes/components/note-page');
const NotesPage = lazyPage(loadNotes, (m) => m.NotesPage);
const NotePage = lazyPage(loadNote, (m) => m.NotePage);
const ProjectSettingsPage = lazy(() =>
  import('./routes/project-settings-route').then((m) => ({ default: m.ProjectSettingsPage })),
);
const TeamSettingsPage = lazy(() => import('./routes/team-settings-route').then((m) => ({ default: m.TeamSettingsPage })));
const AdminRoute = lazy(() => import('./routes/admin-route').then((m) => ({ default: m.AdminRoute })));
// The account's emailed links: one chunk of their own, off the sign-in page's start-up bundle; /signup's page too.
const accountPages = () => import('../features/auth/components/account-pages');
const ForgotPasswordPage = lazy(() => accountPages().then((m) => ({ default: m.ForgotPasswordPage })));
const ResetPasswordPage = lazy(() => accountPages().then((m) => ({ default: m.ResetPasswordPage })));
const VerifyEmailPage = lazy(() => accountPages().then((m) => ({ default: m.VerifyEmailPage })));
const ConfirmEmailPage = lazy(() => accountPages().then((m) => ({ default: m.ConfirmEmailPage })));
const SignupPage = lazy(() => import('../features/auth/components/signup-page').then((m) => ({ default: m.SignupPage })));
// A project's shared board (issue 40): public, outside the app shell and the session check, a light chunk of its own.
const SharedBoardPage = lazy(() =>
  import('../features/sharing/components/shared-board-page').then((m) => ({ default: m.SharedBoardPage })),
);
// Request forms' public pages (issue 40): a form and a request's status, one light chunk (no zod), no session needed.
const formPages = () => import('../features/forms/components/public-pages');
const PublicFormPage = lazy(() => formPages().then((m) => ({ default: m.PublicFormPage })));
const RequestStatusPage = lazy(() => formPages().then((m) => ({ default: m.RequestStatusPage })));
const NotificationsPage = lazy(() =>
  import('../features/notifications/components/notifications-page').then((m) => ({ default: m.NotificationsPage })),
);

/**
 * Opening the app on one of its pages with a stored session: fetch the shell's and the page's
 * chunks at once, beside the session check, instead of one after the other as the routes render
 * (measured: the tasks chunk arrived ~0.9 s after navigation on a cold load of /tasks).
 */
const PRELOAD: Record<string, { load: () => Promise<unknown> }> = {
  '/dashboard': DashboardRoute,
  '/tasks': TasksPage,
  '/projects': ProjectsPage,
  '/teams': TeamsPage,
  '/settings': SettingsPage,
  '/my-work': MyWorkPage,
  '/calendar': CalendarPage,
  '/timeline': TimelinePage,
  '/analytics': AnalyticsPage,
  '/timesheet': TimesheetPage,
  '/notes': NotesPage,
  // A note's page (/notes/:id): the editor's chunk is the largest; fetch it beside the session check.
  '/notes/:id': NotePage,
};
/**
 * Resolves when the chunks of the page being opened (and the shell's) are in, or at once when none are being fetched;
 * never fails. main.tsx renders after it (at most a few seconds), so that the page draws without suspending.
 */
export let openingPageReady: Promise<void> = Promise.resolve();
const storedSession = typeof window !== 'undefined' ? useAuthStore.getState().session : null;
if (storedSession) {
  checkStoredSessionEarly();
  // The board's data too, so it arrives with the chunks rather than after the first render. Asked for before the
  // chunks: HTTP/1.1 gives a host six connections, and a request beyond them waits for one to be free.
  primeBoard(window.location, storedSession.expires_at);
  // A task's own page (/tasks/:id) is the board with the task over it.
  const path = window.location.pathname
    .replace(/\/+$/, '')
    .replace(/^\/tasks\/.+/, '/tasks')
    .replace(/^\/notes\/[^/]+$/, '/notes/:id');
  const page = PRELOAD[path];
  if (page) {
    openingPageReady = Promise.all([AppLayout.load(), page.load()]).then(
      () => {},
      () => {},
    );
  }
}

export const router = createBrowserRouter([
  // Signed in or not, never sent to sign-in: the link is all it needs.
  { path: '/share/:token', element: <Standalone page={SharedBoardPage} /> },
  { path: '/forms/:token', element: <Standalone page={PublicFormPage} /> },
  { path: '/requests/:token', element: <Standalone page={RequestStatusPage} /> },
  {
    element: <AuthInitOutlet />,
    children: [
      {
        path: '/login',
        element: (
          <PublicOnly>
            <LoginPage />
          </PublicOnly>
        ),
      },
      {
        path: '/signup',
        element: (
          <PublicOnly>
            <Standalone page={SignupPage} />
          </PublicOnly>
        ),
      },
      // Open signed in or not: a link from a mail may be followed in a browser signed in to any account.
      { path: '/forgot-password', element: <Standalone page={ForgotPasswordPage} /> },
      { path: '/reset-password', element: <Standalone page={ResetPasswordPage} /> },
      { path: '/verify-email', element: <Standalone page={VerifyEmailPage} /> },
      { path: '/confirm-email', element: <Standalone page={ConfirmEmailPage} /> },
      {
        path: '/',
        element: (
          <RequireAuth>
            <Suspense fallback={<Spinner className="min-h-screen" />}>
              <AppLayout />
            </Suspense>
          </RequireAuth>
        ),
        children: [
          { index: true, element: <Navigate to="/dashboard" replace /> },
          { path: 'dashboard', element: <DashboardRoute /> },
          // One route for the board and a task over it (/tasks/:id): opening or closing a task keeps the board mounted.
          { path: 'tasks/:taskId?', element: <TasksPage /> },
          { path: 'projects', element: <ProjectsPage /> },
          { path: 'projects/:id/settings', element: <ProjectSettingsPage /> },
          { path: 'teams', element: <TeamsPage /> },
          { path: 'teams/:id/settings', element: <TeamSettingsPage /> },
          { path: 'notes', element: <NotesPage /> },
          { path: 'notes/:id', element: <NotePage /> },
          { path: 'my-work', element: <MyWorkPage /> },
          { path: 'calendar', element: <CalendarPage /> },
          { path: 'timeline', element: <TimelinePage /> },
          { path: 'analytics', element: <AnalyticsPage /> },
          { path: 'timesheet', element: <TimesheetPage /> },
          { path: 'settings', element: <SettingsPage /> },
          { path: 'notifications', element: <NotificationsPage /> },
          {
            path: 'admin',
            element: (
              <RequireAuth requiredRole="super_admin">
                <AdminRoute />
              </RequireAuth>
            ),
          },
          { path: '*', element: <NotFoundRoute /> },
        ],
      },
    ],
  },
]);

/** A lazily loaded page outside the app shell. */
function Standalone({ page: Page }: { page: ComponentType }) {
  return (
    <Suspense fallback={<Spinner className="min-h-screen" />}>
      <Page />
    </Suspense>
  );
}

function AuthInitOutlet() {
  return (
    <AuthInit>
      <Outlet />
    </AuthInit>
  );
}
