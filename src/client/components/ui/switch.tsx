import { type ReactNode, useId } from 'react';
import { cn } from '../../lib/cn';

export interface SwitchProps {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  /** The switch's name; shown beside it unless `srOnlyLabel` (a table's column already says it). */
  label: string;
  srOnlyLabel?: boolean;
  description?: ReactNode;
  disabled?: boolean;
  className?: string;
}

/** An on/off setting that applies at once: a button with role="switch", named by its label (Space or Enter flips it). */
export function Switch({ checked, onCheckedChange, label, srOnlyLabel, description, disabled, className }: SwitchProps) {
  const id = useId();
  const descriptionId = `${id}-description`;
  return (
    <div className={cn('flex items-center gap-3', !srOnlyLabel && 'justify-between', className)}>
      <div className={cn(srOnlyLabel && 'sr-only')}>
        <label htmlFor={id} className="text-sm font-medium text-slate-800 dark:text-slate-100">
          {label}
        </label>
        {description && (
          <p id={descriptionId} className="text-sm text-slate-600 dark:text-slate-300">
            {description}
          </p>
        )}
      </div>
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        aria-describedby={description ? descriptionId : undefined}
        disabled={disabled}
        onClick={() => onCheckedChange(!checked)}
        className={cn(
          'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full border transition-colors disabled:cursor-not-allowed disabled:opacity-60',
          checked
            ? 'border-brand-600 bg-brand-600 dark:border-indigo-400 dark:bg-indigo-500'
            : 'border-slate-500 bg-slate-200 dark:border-slate-400 dark:bg-slate-700',
        )}
      >
        <span
          aria-hidden
          className={cn(
            'inline-block h-4 w-4 rounded-full bg-white shadow ring-1 ring-slate-900/10 transition-transform',
            checked ? 'translate-x-6' : 'translate-x-1',
          )}
        />
      </button>
    </div>
  );
}
