import { Bell } from 'lucide-react';
import { Link } from 'react-router';
import { LIMITS } from '../../../../domain/constants';
import type { NotificationDto } from '../../../../domain/schemas/notification';
import { Menu, MenuContent, MenuItem, MenuSeparator, MenuTrigger } from '../../../components/ui/menu';
import { cn } from '../../../lib/cn';

// Sample items until real notifications land (issue 8).
const SAMPLE: NotificationDto[] = [];

export function NotificationsMenu() {
  const items = SAMPLE;
  const unread = items.filter((n) => !n.isRead).length;
  return (
    <Menu>
      <MenuTrigger
        className="relative rounded-lg p-2 text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
        aria-label={unread ? `Notifications (${unread} unread)` : 'Notifications'}
      >
        <Bell className="h-5 w-5" aria-hidden />
        {unread > 0 && (
          <span className="absolute -right-0.5 -top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-xs font-semibold text-white" aria-hidden>
            {unread}
          </span>
        )}
      </MenuTrigger>
      <MenuContent className="w-80">
        <div className="px-3 py-2 text-sm font-semibold">Notifications</div>
        <MenuSeparator />
        {items.length === 0 && <p className="px-3 py-4 text-sm text-slate-600 dark:text-slate-300">You're all caught up.</p>}
        {items.slice(0, LIMITS.notificationDropdown).map((n) => (
          <MenuItem key={n.id} className={cn(!n.isRead && 'font-medium')}>
            <div>
              <p className="text-sm">{n.title}</p>
              <p className="text-xs text-slate-600 dark:text-slate-300">{n.message}</p>
            </div>
          </MenuItem>
        ))}
        <MenuSeparator />
        <MenuItem>
          <Link to="/notifications" className="w-full text-center text-brand-700 dark:text-indigo-300">
            View all notifications
          </Link>
        </MenuItem>
      </MenuContent>
    </Menu>
  );
}
