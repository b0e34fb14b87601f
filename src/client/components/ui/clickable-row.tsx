import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

/**
 * A table row that opens its item on click. The click is a larger mouse target only: the keyboard path is
 * the `RowOpenButton` in the row's name cell.
 */
export function ClickableRow({ onOpen, children }: { onOpen: () => void; children: ReactNode }) {
  return (
    <tr onClick={onOpen} className="cursor-pointer hover:bg-slate-50 dark:hover:bg-slate-800/60">
      {children}
    </tr>
  );
}

/** The button that opens a `ClickableRow`'s item (its click does not reach the row, so it opens once). */
export function RowOpenButton({ onOpen, className, children }: { onOpen: () => void; className?: string; children: ReactNode }) {
  return (
    <button
      type="button"
      className={cn('text-left font-medium text-slate-900 hover:underline dark:text-slate-100', className)}
      onClick={(e) => {
        e.stopPropagation();
        onOpen();
      }}
    >
      {children}
    </button>
  );
}
