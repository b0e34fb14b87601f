import { Bell, CheckCheck } from 'lucide-react';
import { useNavigate } from 'react-router';
import { LIMITS } from '../../../../domain/constants';
import { MSG } from '../../../../domain/messages';
import { notificationTarget } from '../../../../domain/notification-target';
import type { NotificationDto } from '../../../../domain/schemas/notification';
import { Menu, MenuContent, MenuItem, MenuSeparator, MenuTrigger } from '../../../components/ui/menu';
import { useNotifications } from '../api/get-notifications';
import { useMarkAllRead, useMarkRead } from '../api/mark-read';
import { NotificationItem } from './notification-item';

export const badgeText = (unread: number) => (unread > 99 ? '99+' : String(unread));

/** The top bar's bell: the first 5 notifications, the unread count, and the way to all of them. */
export function NotificationsMenu() {
  const { data, isPending, isError } = useNotifications(LIMITS.notificationDropdown);
  const markRead = useMarkRead();
  const markAllRead = useMarkAllRead();
  const navigate = useNavigate();
  const items = data?.notifications ?? [];
  const unread = data?.unread ?? 0;
  const now = new Date();

  const open = (n: NotificationDto) => {
    if (!n.isRead) markRead.mutate(n.id);
    navigate(notificationTarget(n));
  };

  return (
    <Menu>
      <MenuTrigger
        className="relative rounded-lg p-2 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-slate-200 dark:hover:bg-slate-800"
        aria-label={unread ? `Notifications (${unread} unread)` : 'Notifications'}
      >
        <Bell className="h-5 w-5" aria-hidden />
        {unread > 0 && (
          <span
            data-testid="notifications-badge"
            className="absolute -right-0.5 -top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-xs font-semibold text-white"
            aria-hidden
          >
            {badgeText(unread)}
          </span>
        )}
      </MenuTrigger>
      <MenuContent className="w-[min(22rem,calc(100vw-1rem))]">
        <div className="flex items-center justify-between gap-2 px-3 py-2">
          <span className="text-sm font-semibold">Notifications</span>
          {unread > 0 && <span className="text-xs text-slate-600 dark:text-slate-300">{unread} unread</span>}
        </div>
        <MenuSeparator />
        {isPending && <p className="px-3 py-4 text-sm text-slate-600 dark:text-slate-300">Loading...</p>}
        {isError && <p className="px-3 py-4 text-sm text-red-700 dark:text-red-300">{MSG.loadFailed}</p>}
        {!isPending && !isError && items.length === 0 && (
          <p className="px-3 py-4 text-sm text-slate-600 dark:text-slate-300">You're all caught up.</p>
        )}
        {items.slice(0, LIMITS.notificationDropdown).map((n) => (
          <MenuItem key={n.id} onSelect={() => open(n)} className="items-start">
            <NotificationItem notification={n} now={now} />
          </MenuItem>
        ))}
        <MenuSeparator />
        {unread > 0 && (
          <MenuItem
            onSelect={(e) => {
              // Stay open, so the change is visible.
              e.preventDefault();
              markAllRead.mutate(null);
            }}
          >
            <CheckCheck className="h-4 w-4" aria-hidden /> Mark all as read
          </MenuItem>
        )}
        <MenuItem
          onSelect={() => navigate('/notifications')}
          className="justify-center font-medium text-brand-700 dark:text-indigo-300"
        >
          View all notifications
        </MenuItem>
      </MenuContent>
    </Menu>
  );
}
