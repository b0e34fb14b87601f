import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

export interface DefinitionListProps {
  /** Label and value, in order; labels are the keys, so each once. */
  items: readonly (readonly [string, ReactNode])[];
  className?: string;
}

/** Figures beside their labels: a `<dl>`, one row per item, the value right-aligned. */
export function DefinitionList({ items, className }: DefinitionListProps) {
  return (
    <dl className={cn('space-y-3 text-sm', className)}>
      {items.map(([label, value]) => (
        <div key={label} className="flex items-baseline justify-between gap-3">
          <dt className="shrink-0 text-slate-600 dark:text-slate-300">{label}</dt>
          <dd className="min-w-0 break-words text-right font-semibold tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
