import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';
import type { BadgeTone } from '../../../domain/constants';

export function Spinner({ label, className }: { label?: string; className?: string }) {
  return (
    <div role="status" className={cn('flex items-center justify-center gap-3 p-6 text-slate-600 dark:text-slate-300', className)}>
      <span className="h-6 w-6 animate-spin rounded-full border-2 border-brand-600 border-t-transparent" aria-hidden />
      <span>{label ?? 'Loading...'}</span>
    </div>
  );
}

const TONES: Record<BadgeTone, string> = {
  danger: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200',
  warning: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  primary: 'bg-brand-100 text-brand-700 dark:bg-indigo-950 dark:text-indigo-200',
  secondary: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
  success: 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200',
  info: 'bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-200',
};

export function Badge({ tone = 'secondary', children, className }: { tone?: BadgeTone; children: ReactNode; className?: string }) {
  return (
    <span className={cn('inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium', TONES[tone], className)}>
      {children}
    </span>
  );
}

export function Card({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div className={cn('rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-700 dark:bg-slate-900', className)}>
      {children}
    </div>
  );
}

export function PageHeader({ title, subtitle, actions }: { title: string; subtitle?: string; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        {subtitle && <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{subtitle}</p>}
      </div>
      {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}

export function EmptyState({
  icon,
  title,
  message,
  action,
}: {
  icon?: ReactNode;
  title: string;
  message?: string;
  action?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center justify-center rounded-xl border border-dashed border-slate-300 px-6 py-12 text-center dark:border-slate-700">
      {icon && <div className="mb-3 text-slate-500 dark:text-slate-400">{icon}</div>}
      <h2 className="text-base font-semibold">{title}</h2>
      {message && <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{message}</p>}
      {action && <div className="mt-4">{action}</div>}
    </div>
  );
}

export function StatCard({
  label,
  value,
  icon,
  change,
}: {
  label: string;
  value: ReactNode;
  icon?: ReactNode;
  change?: string;
}) {
  return (
    <Card className="p-4">
      <div className="flex items-center justify-between">
        <p className="text-sm font-medium text-slate-600 dark:text-slate-300">{label}</p>
        {icon && <span className="text-brand-600 dark:text-brand-100" aria-hidden>{icon}</span>}
      </div>
      <p className="mt-2 text-2xl font-bold">{value}</p>
      {change && <p className="mt-1 text-xs text-green-700 dark:text-green-400">{change}</p>}
    </Card>
  );
}

/** A percent bar; green at exactly 100 (spec §9). */
export function ProgressBar({ value, label }: { value: number; label: string }) {
  const pct = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div
      role="progressbar"
      aria-valuenow={pct}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-label={label}
      className="h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
    >
      <div className={cn('h-full rounded-full', pct === 100 ? 'bg-green-600' : 'bg-brand-600')} style={{ width: `${pct}%` }} />
    </div>
  );
}

export function ComingSoon({ title }: { title: string }) {
  return (
    <div>
      <PageHeader title={title} />
      <EmptyState title="Coming soon" message={`${title} is coming soon. We're working on it.`} />
    </div>
  );
}
