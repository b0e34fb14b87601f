import { type ReactNode, useEffect, useRef } from 'react';
import { FieldShell } from '../../../components/ui/field';
import { cn } from '../../../lib/cn';

export interface ColorFieldProps {
  label: ReactNode;
  value: string;
  error?: string;
  className?: string;
  /** Each value while the picker is open. */
  onValueChange: (color: string) => void;
  /** The picked value, once the picker is closed (the input's native change event), to save. */
  onCommit?: (color: string) => void;
}

/** A colour as #rrggbb: the browser's colour picker, with the value written beside it (not told by colour alone). */
export function ColorField({ label, value, error, className, onValueChange, onCommit }: ColorFieldProps) {
  const ref = useRef<HTMLInputElement>(null);
  const commit = useRef(onCommit);
  commit.current = onCommit;
  // React's onChange is the input event, fired on every move in the picker; the native change event is the pick.
  useEffect(() => {
    const input = ref.current;
    if (!input) return;
    const onChange = () => commit.current?.(input.value);
    input.addEventListener('change', onChange);
    return () => input.removeEventListener('change', onChange);
  }, []);
  return (
    <FieldShell label={label} error={error} className={className}>
      {({ id, describedBy, invalid }) => (
        <div className="flex h-[38px] items-center gap-2">
          <input
            ref={ref}
            id={id}
            type="color"
            value={value}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            onChange={(e) => onValueChange(e.target.value)}
            className="h-9 w-11 cursor-pointer rounded-md border border-slate-300 bg-white p-1 disabled:cursor-not-allowed dark:border-slate-600 dark:bg-slate-900"
          />
          <span className="font-mono text-xs text-slate-700 dark:text-slate-200">{value}</span>
        </div>
      )}
    </FieldShell>
  );
}

/** A status's colour as a dot beside its name. */
export function ColorSwatch({ color, className }: { color: string; className?: string }) {
  return (
    <span
      aria-hidden
      className={cn('inline-block h-3 w-3 shrink-0 rounded-full ring-1 ring-slate-900/10 dark:ring-white/20', className)}
      style={{ backgroundColor: color }}
    />
  );
}
