import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { MSG } from '../../../../domain/messages';
import { Button } from '../../../components/ui/button';

/** A panel's content once its data is here: a placeholder shaped like a panel meanwhile, a retry on failure. */
export function Loaded<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  if (query.data !== undefined) return <>{children(query.data)}</>;
  if (query.isError) {
    return (
      <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-5 text-sm dark:border-red-900 dark:bg-red-950">
        <p>{MSG.loadFailed}</p>
        <Button variant="secondary" size="sm" className="mt-3" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  return (
    <div
      role="status"
      className="h-40 animate-pulse rounded-xl border border-slate-200 bg-slate-100 dark:border-slate-700 dark:bg-slate-800"
    >
      <span className="sr-only">Loading...</span>
    </div>
  );
}
