import { cn } from '../../lib/cn';

export interface SpinnerProps {
  label?: string;
  className?: string;
}

export function Spinner({ label, className }: SpinnerProps) {
  return (
    <div role="status" className={cn('flex items-center justify-center gap-3 p-6 text-slate-600 dark:text-slate-300', className)}>
      <span className="h-6 w-6 animate-spin rounded-full border-2 border-brand-600 border-t-transparent" aria-hidden />
      <span>{label ?? 'Loading...'}</span>
    </div>
  );
}
