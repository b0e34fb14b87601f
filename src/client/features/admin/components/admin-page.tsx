import { RefreshCw } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { toast } from 'sonner';
import { MSG } from '../../../../domain/messages';
import type { AdminUserDto } from '../../../../domain/schemas/admin';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';
import { SearchField } from '../../../components/ui/search-field';
import { errorText, toastError } from '../../../lib/errors';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useAuthStore } from '../../../stores/auth-store';
import { useAdminOverview, useAdminUserSearch } from '../api/get-admin-overview';
import { useSetUserActive } from '../api/set-user-active';
import { AdminStats, AdminStatsSkeleton } from './admin-stats';
import { EmailCard } from './email-card';
import { SystemAlerts } from './system-alerts';
import { UsersTable } from './users-table';
import { ScimTokensSection } from './scim-tokens-section';
import { SsoSection } from './sso-section';

/**
 * The admin dashboard (/admin, super_admin only): real figures, users, and system checks. `auditLog` is the audit
 * feature's log, placed here by the route (app/routes/admin-route.tsx): a feature does not import another.
 */
export function AdminPage({ auditLog }: { auditLog: ReactNode }) {
  useDocumentTitle('Admin Panel');
  const overview = useAdminOverview();
  const currentUserId = useAuthStore((s) => s.user?.id);
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim());
  const found = useAdminUserSearch(q);
  const [pending, setPending] = useState<AdminUserDto | null>(null);
  const setActive = useSetUserActive();

  const confirm = () => {
    if (!pending) return;
    const next = !pending.isActive;
    setActive.mutate(
      { id: pending.id, isActive: next },
      {
        onSuccess: (user) => {
          toast.success(next ? `${user.fullName} was reactivated` : `${user.fullName} was deactivated and signed out`);
          setPending(null);
        },
        onError: (error) => {
          toastError(error, 'Failed to update user');
          setPending(null);
        },
      },
    );
  };

  const refresh = (
    <Button variant="secondary" onClick={() => void overview.refetch()} isLoading={overview.isFetching && !overview.isLoading}>
      <RefreshCw className="h-4 w-4" aria-hidden />
      Refresh
    </Button>
  );

  if (overview.isError && !overview.data) {
    return (
      <div>
        <PageHeader title="Admin Dashboard" subtitle="System overview" />
        <EmptyState title={MSG.loadFailed} message={errorText(overview.error, '')} action={refresh} />
      </div>
    );
  }

  const data = overview.data;
  const searching = q.length > 0;
  const users = searching ? (found.data ?? []) : (data?.recentUsers ?? []);

  return (
    <div className="space-y-6">
      <PageHeader title="Admin Dashboard" subtitle="System overview" actions={refresh} />
      {data ? <AdminStats stats={data.stats} /> : <AdminStatsSkeleton />}

      <div className="grid gap-6 2xl:grid-cols-3">
        <Card className="min-w-0 self-start p-4 2xl:col-span-2">
          <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
            <h2 className="text-lg font-semibold">{searching ? 'Matching Users' : 'Recent Users'}</h2>
            <SearchField
              label="Search users"
              placeholder="Search by name or email"
              value={search}
              onValueChange={setSearch}
              className="w-full sm:w-64"
            />
          </div>
          {!data || (searching && found.isLoading) ? (
            <div className="h-40 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800" aria-hidden />
          ) : users.length === 0 ? (
            <EmptyState title={searching ? 'No users match this search' : 'No users yet'} />
          ) : (
            <UsersTable
              users={users}
              currentUserId={currentUserId}
              onToggle={setPending}
              caption={searching ? 'Users matching the search' : 'Recent users, newest first'}
            />
          )}
        </Card>
        {data ? (
          <div className="min-w-0 space-y-6">
            <SystemAlerts alerts={data.alerts} />
            <EmailCard mail={data.mail} />
          </div>
        ) : (
          <div className="h-48 animate-pulse rounded-xl bg-slate-200 dark:bg-slate-800" aria-hidden />
        )}
      </div>

      <SsoSection />

      <ScimTokensSection />

      {auditLog}

      <ConfirmDialog
        open={pending !== null}
        title={pending?.isActive ? 'Deactivate user' : 'Reactivate user'}
        message={
          pending?.isActive
            ? `Deactivate ${pending.fullName} (${pending.email})? They are signed out everywhere at once and cannot sign in until reactivated.`
            : `Reactivate ${pending?.fullName ?? ''} (${pending?.email ?? ''})? They will be able to sign in again.`
        }
        confirmLabel={pending?.isActive ? 'Deactivate' : 'Reactivate'}
        destructive={pending?.isActive ?? true}
        isLoading={setActive.isPending}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
    </div>
  );
}
