import type { ReactNode } from 'react';
import { Card } from './card';

export interface StatCardProps {
  label: string;
  value: ReactNode;
  icon?: ReactNode;
  change?: string;
  /** The change's colour: green up, red down, grey flat (green when not given). */
  changeTone?: 'up' | 'down' | 'flat';
}

const TONE = {
  up: 'text-green-700 dark:text-green-400',
  down: 'text-red-700 dark:text-red-400',
  flat: 'text-slate-600 dark:text-slate-300',
} as const;

export function StatCard({ label, value, icon, change, changeTone = 'up' }: StatCardProps) {
  return (
    <Card className="p-4">
      <div className="flex items-center justify-between">
        <p className="text-sm font-medium text-slate-600 dark:text-slate-300">{label}</p>
        {icon && (
          <span className="text-brand-600 dark:text-brand-100" aria-hidden>
            {icon}
          </span>
        )}
      </div>
      <p className="mt-2 text-2xl font-bold">{value}</p>
      {change && <p className={`mt-1 text-xs ${TONE[changeTone]}`}>{change}</p>}
    </Card>
  );
}
