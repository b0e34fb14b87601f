import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, Outlet } from 'react-router';
import { AuthInit, PublicOnly, RequireAuth } from '../features/auth/components/auth-gate';
import { LoginPage } from '../features/auth/components/login-page';
import { SignupPage } from '../features/auth/components/signup-page';
import { Spinner } from '../components/ui/misc';

// Route-level code splitting: the sign-in pages do not load the app shell, and each heavy page
// loads when first visited.
const AppLayout = lazy(() => import('./layout/app-layout').then((m) => ({ default: m.AppLayout })));
const pages = () => import('./routes/pages');
const DashboardRoute = lazy(() => pages().then((m) => ({ default: m.DashboardRoute })));
const NotesRoute = lazy(() => pages().then((m) => ({ default: m.NotesRoute })));
const CalendarRoute = lazy(() => pages().then((m) => ({ default: m.CalendarRoute })));
const AnalyticsRoute = lazy(() => pages().then((m) => ({ default: m.AnalyticsRoute })));
const SettingsRoute = lazy(() => pages().then((m) => ({ default: m.SettingsRoute })));
const NotFoundRoute = lazy(() => pages().then((m) => ({ default: m.NotFoundRoute })));

const TasksPage = lazy(() => import('../features/tasks/components/tasks-page').then((m) => ({ default: m.TasksPage })));
const ProjectsPage = lazy(() =>
  import('../features/projects/components/projects-page').then((m) => ({ default: m.ProjectsPage })),
);
const TeamsPage = lazy(() => import('../features/teams/components/teams-page').then((m) => ({ default: m.TeamsPage })));
const AdminPage = lazy(() => import('../features/admin/components/admin-page').then((m) => ({ default: m.AdminPage })));
const NotificationsPage = lazy(() =>
  import('../features/notifications/components/notifications-page').then((m) => ({ default: m.NotificationsPage })),
);

export const router = createBrowserRouter([
  {
    element: <AuthInitOutlet />,
    children: [
      { path: '/login', element: <PublicOnly><LoginPage /></PublicOnly> },
      { path: '/signup', element: <PublicOnly><SignupPage /></PublicOnly> },
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
          { path: 'tasks', element: <TasksPage /> },
          { path: 'projects', element: <ProjectsPage /> },
          { path: 'teams', element: <TeamsPage /> },
          { path: 'notes', element: <NotesRoute /> },
          { path: 'calendar', element: <CalendarRoute /> },
          { path: 'analytics', element: <AnalyticsRoute /> },
          { path: 'settings', element: <SettingsRoute /> },
          { path: 'notifications', element: <NotificationsPage /> },
          {
            path: 'admin',
            element: (
              <RequireAuth requiredRole="super_admin">
                <AdminPage />
              </RequireAuth>
            ),
          },
          { path: '*', element: <NotFoundRoute /> },
        ],
      },
    ],
  },
]);


function AuthInitOutlet() {
  return (
    <AuthInit>
      <Outlet />
    </AuthInit>
  );
}
