import { Search } from 'lucide-react';
import type { ChangeEvent } from 'react';
import { cn } from '../../lib/cn';
import { TextField, type TextFieldProps } from './field';

export interface SearchFieldProps extends Omit<TextFieldProps, 'type' | 'srOnlyLabel' | 'trailing' | 'onChange'> {
  value: string;
  onValueChange: (value: string) => void;
  /** The (decorative) magnifier at the end of the box, or before the text. */
  iconAt?: 'end' | 'start';
}

/** A page's search box: its label is for screen readers only, its placeholder says what it searches. */
export function SearchField({ onValueChange, iconAt = 'end', className, ...props }: SearchFieldProps) {
  const rest = { ...props, onChange: (e: ChangeEvent<HTMLInputElement>) => onValueChange(e.target.value) };
  if (iconAt === 'end') {
    const icon = <Search className="mr-2 h-4 w-4 text-slate-500 dark:text-slate-400" aria-hidden />;
    return <TextField type="search" srOnlyLabel className={className} trailing={icon} {...rest} />;
  }
  return (
    <div className={cn('relative', className)}>
      <Search
        className="pointer-events-none absolute left-3 top-1/2 z-10 h-4 w-4 -translate-y-1/2 text-slate-500 dark:text-slate-400"
        aria-hidden
      />
      <TextField type="search" srOnlyLabel className="[&_input]:pl-9" {...rest} />
    </div>
  );
}
