import {
  ArrowRightLeft,
  AtSign,
  Webhook,
  CheckCircle2,
  FolderKanban,
  MessageSquare,
  UserPlus,
  UserRoundCheck,
} from 'lucide-react';
import type { NotificationType } from '../../../../domain/constants';
import { relativeTime } from '../../../../domain/dates';
import type { NotificationDto } from '../../../../domain/schemas/notification';
import { cn } from '../../../lib/cn';

const ICONS: Record<NotificationType, { icon: typeof CheckCircle2; className: string }> = {
  task_assigned: { icon: UserRoundCheck, className: 'bg-brand-100 text-brand-700 dark:bg-indigo-950 dark:text-indigo-200' },
  task_completed: { icon: CheckCircle2, className: 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200' },
  project_updated: { icon: FolderKanban, className: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200' },
  team_invite: { icon: UserPlus, className: 'bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-200' },
  mentioned: { icon: AtSign, className: 'bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-200' },
  task_comment: { icon: MessageSquare, className: 'bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200' },
  task_status: { icon: ArrowRightLeft, className: 'bg-teal-100 text-teal-800 dark:bg-teal-950 dark:text-teal-200' },
  webhook_failing: { icon: Webhook, className: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200' },
};

export interface NotificationItemProps {
  notification: NotificationDto;
  now: Date;
  /** Lets long messages wrap (the full page) instead of clamping (the dropdown). */
  isExpanded?: boolean;
}

/** One notification's content: type icon, title, message, time and an unread dot. */
export function NotificationItem({ notification: n, now, isExpanded }: NotificationItemProps) {
  const { icon: Icon, className } = ICONS[n.type];
  return (
    <div className="flex w-full min-w-0 items-start gap-3 text-left">
      <span className={cn('mt-0.5 flex h-8 w-8 shrink-0 items-center justify-center rounded-full', className)} aria-hidden>
        <Icon className="h-4 w-4" />
      </span>
      <span className="min-w-0 flex-1">
        <span className={cn('block text-sm', n.isRead ? 'font-normal' : 'font-semibold')}>{n.title}</span>
        <span className={cn('block text-sm text-slate-600 dark:text-slate-300', !isExpanded && 'line-clamp-2')}>{n.message}</span>
        <span className="mt-0.5 block text-xs text-slate-600 dark:text-slate-300">
          <time dateTime={n.createdAt}>{relativeTime(new Date(n.createdAt), now)}</time>
          {!n.isRead && <span className="sr-only">, unread</span>}
        </span>
      </span>
      {!n.isRead && <span className="mt-2 h-2 w-2 shrink-0 rounded-full bg-brand-600 dark:bg-indigo-400" aria-hidden />}
    </div>
  );
}
