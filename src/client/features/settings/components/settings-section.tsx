import type { ReactNode } from 'react';
import { cn } from '../../../lib/cn';

export interface SettingsSectionProps {
  /** The anchor (/settings#id) and the in-page navigation's target. */
  id: string;
  title: string;
  description?: string;
  children: ReactNode;
}

/** One section of /settings: its heading (focused when the in-page navigation jumps to it) and its panels. */
export function SettingsSection({ id, title, description, children }: SettingsSectionProps) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-4 space-y-4">
      <div>
        <h2 id={`${id}-heading`} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
          {title}
        </h2>
        {description && <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{description}</p>}
      </div>
      {children}
    </section>
  );
}

export interface SettingsPanelProps {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** A destructive panel (delete account) is outlined in red. */
  danger?: boolean;
}

/** A card inside a section, with its own heading ('Email address', 'Change password'…). */
export function SettingsPanel({ title, description, children, danger }: SettingsPanelProps) {
  return (
    <div
      className={cn(
        'rounded-xl border bg-white p-5 shadow-sm dark:bg-slate-900',
        danger ? 'border-red-300 dark:border-red-900' : 'border-slate-200 dark:border-slate-700',
      )}
    >
      <h3 className="text-base font-semibold">{title}</h3>
      {description && <div className="mt-1 text-sm text-slate-600 dark:text-slate-300">{description}</div>}
      <div className="mt-4">{children}</div>
    </div>
  );
}
