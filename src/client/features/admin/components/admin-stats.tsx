import { Activity, CircleCheck, FolderKanban, ListTodo, Users, UsersRound } from 'lucide-react';
import type { AdminStatsDto } from '../../../../domain/schemas/admin';
import { StatCard } from '../../../components/ui/stat-card';

const CARDS: { key: keyof AdminStatsDto; label: string; icon: typeof Users }[] = [
  { key: 'totalUsers', label: 'Total Users', icon: Users },
  { key: 'activeUsers30d', label: 'Active Users (30 days)', icon: Activity },
  { key: 'teams', label: 'Teams', icon: UsersRound },
  { key: 'projects', label: 'Projects', icon: FolderKanban },
  { key: 'tasks', label: 'Tasks', icon: ListTodo },
  { key: 'tasksCompletedThisMonth', label: 'Completed This Month', icon: CircleCheck },
];

const format = new Intl.NumberFormat('en-US');

export function AdminStats({ stats }: { stats: AdminStatsDto }) {
  return (
    <section aria-label="System figures" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3 2xl:grid-cols-6">
      {CARDS.map(({ key, label, icon: Icon }) => (
        <StatCard key={key} label={label} value={format.format(stats[key])} icon={<Icon className="h-5 w-5" />} />
      ))}
    </section>
  );
}

export function AdminStatsSkeleton() {
  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3 2xl:grid-cols-6" aria-hidden>
      {CARDS.map(({ key }) => (
        <div key={key} className="h-[5.5rem] animate-pulse rounded-xl bg-slate-200 dark:bg-slate-800" />
      ))}
    </div>
  );
}
