import {
  forwardRef,
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { cn } from '../../lib/cn';

export const inputClass =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 focus-visible:border-brand-600 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-500 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-400 dark:disabled:bg-slate-800 aria-[invalid=true]:border-red-600 dark:aria-[invalid=true]:border-red-400';

interface FieldShellProps {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  children: (ids: { id: string; describedBy?: string; invalid: boolean }) => ReactNode;
  className?: string;
  srOnlyLabel?: boolean;
}

/** A label, a control, and its error tied to it with aria-describedby. */
export function FieldShell({ label, error, hint, children, className, srOnlyLabel }: FieldShellProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('space-y-1', className)}>
      <label
        htmlFor={id}
        className={cn('block text-sm font-medium text-slate-700 dark:text-slate-200', srOnlyLabel && 'sr-only')}
      >
        {label}
      </label>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {hint && (
        <div id={hintId} className="text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </div>
      )}
      {error && (
        <p id={errorId} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  trailing?: ReactNode;
  srOnlyLabel?: boolean;
}

export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField(
  { label, error, hint, trailing, className, srOnlyLabel, ...rest },
  ref,
) {
  return (
    <FieldShell label={label} error={error} hint={hint} className={className} srOnlyLabel={srOnlyLabel}>
      {({ id, describedBy, invalid }) => (
        <div className="relative">
          <input
            ref={ref}
            id={id}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            className={cn(inputClass, trailing ? 'pr-10' : undefined)}
            {...rest}
          />
          {trailing && <div className="absolute inset-y-0 right-0 flex items-center pr-1">{trailing}</div>}
        </div>
      )}
    </FieldShell>
  );
});

export interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: ReactNode;
  error?: string;
}

export function TextAreaField({ label, error, className, ...rest }: TextAreaFieldProps) {
  return (
    <FieldShell label={label} error={error} className={className}>
      {({ id, describedBy, invalid }) => (
        <textarea
          id={id}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          className={cn(inputClass, 'min-h-20')}
          {...rest}
        />
      )}
    </FieldShell>
  );
}

export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  srOnlyLabel?: boolean;
}

export function SelectField({ label, error, hint, className, children, srOnlyLabel, ...rest }: SelectFieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint} className={className} srOnlyLabel={srOnlyLabel}>
      {({ id, describedBy, invalid }) => (
        <select id={id} aria-invalid={invalid || undefined} aria-describedby={describedBy} className={inputClass} {...rest}>
          {children}
        </select>
      )}
    </FieldShell>
  );
}
