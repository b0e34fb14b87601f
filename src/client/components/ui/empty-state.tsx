import type { ReactNode } from 'react';

export interface EmptyStateProps {
  icon?: ReactNode;
  title: string;
  message?: string;
  action?: ReactNode;
}

export function EmptyState({ icon, title, message, action }: EmptyStateProps) {
  return (
    <div className="flex flex-col items-center justify-center rounded-xl border border-dashed border-slate-300 px-6 py-12 text-center dark:border-slate-700">
      {icon && <div className="mb-3 text-slate-500 dark:text-slate-400">{icon}</div>}
      <h2 className="text-base font-semibold">{title}</h2>
      {message && <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{message}</p>}
      {action && <div className="mt-4">{action}</div>}
    </div>
  );
}
