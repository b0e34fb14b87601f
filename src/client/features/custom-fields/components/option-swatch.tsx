import { cn } from '../../../lib/cn';

/** An option's colour as a dot beside its name (its name always says it too). */
export function OptionSwatch({ color, className }: { color: string; className?: string }) {
  return (
    <span
      aria-hidden
      className={cn('inline-block h-3 w-3 shrink-0 rounded-full ring-1 ring-slate-900/10 dark:ring-white/20', className)}
      style={{ backgroundColor: color }}
    />
  );
}
