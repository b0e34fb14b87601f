import { Activity, CircleCheck, FolderKanban, ListTodo, type LucideIcon, Users, UsersRound } from 'lucide-react';
import type { AdminStatsDto } from '../../../../domain/schemas/admin';
import { StatCard } from '../../../components/ui/stat-card';

/** One card per figure, in this order (a figure without a card fails the typecheck). */
const CARDS: Record<keyof AdminStatsDto, { label: string; icon: LucideIcon }> = {
  totalUsers: { label: 'Total Users', icon: Users },
  activeUsers30d: { label: 'Active Users (30 days)', icon: Activity },
  teams: { label: 'Teams', icon: UsersRound },
  projects: { label: 'Projects', icon: FolderKanban },
  tasks: { label: 'Tasks', icon: ListTodo },
  tasksCompletedThisMonth: { label: 'Completed This Month', icon: CircleCheck },
};
const KEYS = Object.keys(CARDS) as (keyof AdminStatsDto)[];

const format = new Intl.NumberFormat('en-US');

export function AdminStats({ stats }: { stats: AdminStatsDto }) {
  return (
    <section aria-label="System figures" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3 2xl:grid-cols-6">
      {KEYS.map((key) => {
        const { label, icon: Icon } = CARDS[key];
        return <StatCard key={key} label={label} value={format.format(stats[key])} icon={<Icon className="h-5 w-5" />} />;
      })}
    </section>
  );
}

export function AdminStatsSkeleton() {
  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3 2xl:grid-cols-6" aria-hidden>
      {KEYS.map((key) => (
        <div key={key} className="h-[5.5rem] animate-pulse rounded-xl bg-slate-200 dark:bg-slate-800" />
      ))}
    </div>
  );
}
