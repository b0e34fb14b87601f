import { useState } from 'react';
import { initials } from '../../../domain/teams';
import { cn } from '../../lib/cn';

const SIZES = {
  sm: 'h-8 w-8 text-xs',
  md: 'h-10 w-10 text-sm',
  lg: 'h-20 w-20 text-2xl',
} as const;

const TONES = {
  soft: 'bg-brand-100 text-brand-700 dark:bg-indigo-950 dark:text-indigo-200',
  strong: 'bg-brand-600 text-white',
} as const;

export interface AvatarProps {
  /** Whose: their initials stand in when there is no picture. */
  name: string;
  /** The picture's URL (a user's `avatar`), or null for the initials. */
  src?: string | null;
  size?: keyof typeof SIZES;
  tone?: keyof typeof TONES;
  /** What a screen reader hears; null when the name is written beside it or the control around it is labelled. */
  label: string | null;
  className?: string;
}

/**
 * A person's picture, or their initials when they have none (or it fails to load: a deleted file, a Google picture
 * gone). Every avatar of the app is this one.
 */
export function Avatar({ name, src, size = 'sm', tone = 'soft', label, className }: AvatarProps) {
  // The URL that failed, so that a new one is tried again.
  const [failed, setFailed] = useState<string | null>(null);
  const base = cn('inline-flex shrink-0 items-center justify-center rounded-full font-semibold', SIZES[size], className);
  const a11y = label === null ? { 'aria-hidden': true } : { title: label };
  if (src && src !== failed) {
    return (
      <img
        src={src}
        alt={label ?? ''}
        {...a11y}
        onError={() => setFailed(src)}
        className={cn(base, 'bg-slate-100 object-cover dark:bg-slate-800')}
      />
    );
  }
  return (
    <span {...a11y} {...(label !== null && { role: 'img', 'aria-label': label })} className={cn(base, TONES[tone])}>
      {initials(name)}
    </span>
  );
}
