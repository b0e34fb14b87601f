import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Bell, CheckCheck, ChevronLeft, ChevronRight } from 'lucide-react';
import { useNavigate, useSearchParams } from 'react-router';
import { MSG } from '../../../../domain/messages';
import { notificationTarget } from '../../../../domain/notification-target';
import type { NotificationDto } from '../../../../domain/schemas/notification';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useNotifications } from '../api/get-notifications';
import { useMarkAllRead, useMarkRead } from '../api/mark-read';
import { notificationKeys } from '../api/notification-keys';
import { NotificationItem } from './notification-item';

export const NOTIFICATIONS_PAGE_SIZE = 20;

/** Every notification, newest first, a page at a time (the page number lives in the URL). */
export function NotificationsPage() {
  useDocumentTitle('Notifications');
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const { data, isPending, isError, isPlaceholderData } = useNotifications(
    NOTIFICATIONS_PAGE_SIZE,
    (page - 1) * NOTIFICATIONS_PAGE_SIZE,
  );
  const markRead = useMarkRead();
  const markAllRead = useMarkAllRead();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const now = new Date();

  const total = data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / NOTIFICATIONS_PAGE_SIZE));
  const goTo = (p: number) => setParams(p === 1 ? {} : { page: String(p) });
  // Past the last page (e.g. a stale link): show the last one.
  useEffect(() => {
    if (data && !isPlaceholderData && page > pages) setParams(pages === 1 ? {} : { page: String(pages) }, { replace: true });
  }, [data, isPlaceholderData, page, pages, setParams]);

  const open = (n: NotificationDto) => {
    if (!n.isRead) markRead.mutate(n.id);
    navigate(notificationTarget(n));
  };

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title="Notifications"
        subtitle={data ? `${data.unread} unread of ${total}` : undefined}
        actions={
          <Button variant="secondary" onClick={() => markAllRead.mutate(null)} disabled={!data?.unread}>
            <CheckCheck className="h-4 w-4" aria-hidden /> Mark all as read
          </Button>
        }
      />
      {isPending && <Spinner />}
      {isError && (
        <EmptyState
          title={MSG.loadFailed}
          action={
            <Button variant="secondary" onClick={() => void qc.invalidateQueries({ queryKey: notificationKeys.all })}>
              Try again
            </Button>
          }
        />
      )}
      {data && total === 0 && (
        <EmptyState icon={<Bell className="h-8 w-8" />} title="No notifications yet" message="You're all caught up." />
      )}
      {data && data.notifications.length > 0 && (
        <Card className={cn('overflow-hidden', isPlaceholderData && 'opacity-60')}>
          <ul className="divide-y divide-slate-200 dark:divide-slate-700" aria-label="Notifications">
            {data.notifications.map((n) => (
              <li key={n.id}>
                <button
                  type="button"
                  onClick={() => open(n)}
                  className={cn(
                    'w-full px-4 py-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 dark:hover:bg-slate-800',
                    !n.isRead && 'bg-brand-50/60 dark:bg-indigo-950/30',
                  )}
                >
                  <NotificationItem notification={n} now={now} isExpanded />
                </button>
              </li>
            ))}
          </ul>
        </Card>
      )}
      {data && total > NOTIFICATIONS_PAGE_SIZE && (
        <nav className="mt-4 flex items-center justify-between gap-2" aria-label="Pagination">
          <Button variant="secondary" size="sm" onClick={() => goTo(page - 1)} disabled={page <= 1}>
            <ChevronLeft className="h-4 w-4" aria-hidden /> Previous
          </Button>
          <span className="text-sm text-slate-600 dark:text-slate-300">
            Page {Math.min(page, pages)} of {pages}
          </span>
          <Button variant="secondary" size="sm" onClick={() => goTo(page + 1)} disabled={page >= pages}>
            Next <ChevronRight className="h-4 w-4" aria-hidden />
          </Button>
        </nav>
      )}
    </div>
  );
}
