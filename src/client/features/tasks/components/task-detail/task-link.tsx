import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { cn } from '../../../../lib/cn';

/**
 * A link from one task's page to another's (a sub-task, the parent, a blocker). The board's filters stay in the query
 * string; the page replaces the one shown rather than stacking on it, so closing it still goes back to the board.
 */
export function TaskLink({ taskId, className, children }: { taskId: string; className?: string; children: ReactNode }) {
  const location = useLocation();
  return (
    <Link
      to={{ pathname: `/tasks/${taskId}`, search: location.search }}
      state={location.state}
      replace
      className={cn(
        'break-words font-medium text-brand-700 underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 dark:text-indigo-300',
        className,
      )}
    >
      {children}
    </Link>
  );
}
