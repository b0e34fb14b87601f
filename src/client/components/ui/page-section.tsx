import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

export interface PageSectionProps {
  /** The section's anchor, when a link leads to it (`#export-import`). */
  id?: string;
  /** The id of its h2, which names the section. */
  headingId: string;
  title: string;
  description: string;
  /** Beside the heading (an 'Add' button); the description then keeps to a readable width. */
  action?: ReactNode;
  children: ReactNode;
}

/** A titled section of a page (team settings' Webhooks, Export and import): an h2, a line that explains it, its content. */
export function PageSection({ id, headingId, title, description, action, children }: PageSectionProps) {
  const heading = (
    <div>
      <h2 id={headingId} className="text-lg font-semibold">
        {title}
      </h2>
      <p className={cn('mt-1', action !== undefined && 'max-w-2xl', 'text-sm text-slate-600 dark:text-slate-300')}>
        {description}
      </p>
    </div>
  );
  return (
    <section id={id} aria-labelledby={headingId} className="space-y-4">
      {action !== undefined ? (
        <div className="flex flex-wrap items-start justify-between gap-3">
          {heading}
          {action}
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  );
}
