import { CheckCircle2, FolderPlus, History, Pencil, UsersRound } from 'lucide-react';
import { DASHBOARD_TEXT } from '../../../../domain/dashboard';
import { relativeTime } from '../../../../domain/dates';
import { MSG } from '../../../../domain/messages';
import type { ActivityItem } from '../../../../domain/schemas/dashboard';
import { cn } from '../../../lib/cn';
import { ListPanel } from './panel';

const ENTITY_LABELS: Record<ActivityItem['entity'], string> = { task: 'Task', project: 'Project', team: 'Team' };

function ActivityIcon({ item }: { item: ActivityItem }) {
  const Icon =
    item.action === 'completed'
      ? CheckCircle2
      : item.action === 'updated'
        ? Pencil
        : item.entity === 'team'
          ? UsersRound
          : FolderPlus;
  return (
    <span
      className={cn(
        'flex h-8 w-8 shrink-0 items-center justify-center rounded-full',
        item.action === 'completed'
          ? 'bg-green-100 text-green-700 dark:bg-green-950 dark:text-green-300'
          : item.action === 'updated'
            ? 'bg-sky-100 text-sky-700 dark:bg-sky-950 dark:text-sky-300'
            : 'bg-brand-100 text-brand-700 dark:bg-indigo-950 dark:text-indigo-300',
      )}
      aria-hidden
    >
      <Icon className="h-4 w-4" />
    </span>
  );
}

export function RecentActivity({ items, now }: { items: ActivityItem[]; now: Date }) {
  return (
    <ListPanel
      id="activity"
      title={DASHBOARD_TEXT.recentActivity}
      icon={<History className="h-5 w-5" />}
      items={items}
      empty={MSG.noRecentActivity}
    >
      {(item) => (
        <li key={item.id} className="flex items-start gap-3">
          <ActivityIcon item={item} />
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium" title={item.title}>
              {item.title}
            </p>
            <p className="text-xs text-slate-600 dark:text-slate-300">
              {ENTITY_LABELS[item.entity]} {item.action} ·{' '}
              <time dateTime={item.at} title={new Date(item.at).toLocaleString()}>
                {relativeTime(new Date(item.at), now)}
              </time>
            </p>
          </div>
        </li>
      )}
    </ListPanel>
  );
}
