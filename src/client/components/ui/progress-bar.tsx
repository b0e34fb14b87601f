import { cn } from '../../lib/cn';

export interface ProgressBarProps {
  value: number;
  label: string;
}

/** A percent bar; green at exactly 100 (spec §9). */
export function ProgressBar({ value, label }: ProgressBarProps) {
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
