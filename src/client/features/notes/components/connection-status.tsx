import { CircleAlert, CloudOff, LoaderCircle, Wifi } from 'lucide-react';
import type { ConnectionSnapshot } from '../collab';
import { cn } from '../../../lib/cn';

/** What the collaboration connection is doing, in words (a live region: changes are announced). */
export function connectionText({ state, stopReason }: ConnectionSnapshot): string {
  switch (state) {
    case 'connecting':
      return 'Connecting…';
    case 'connected':
      return 'Connected';
    case 'offline':
      return 'Offline — your changes will merge when you reconnect';
    case 'reconnecting':
      return 'Reconnecting…';
    case 'stopped':
      return stopReason === 'gone' ? 'This note was deleted' : 'You are no longer a member of this team';
  }
}

export function ConnectionStatus({ snapshot }: { snapshot: ConnectionSnapshot }) {
  const { state } = snapshot;
  const Icon = state === 'connected' ? Wifi : state === 'offline' ? CloudOff : state === 'stopped' ? CircleAlert : LoaderCircle;
  return (
    <p
      role="status"
      data-state={state}
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-xs font-medium',
        state === 'connected' &&
          'border-green-300 bg-green-50 text-green-900 dark:border-green-800 dark:bg-green-950 dark:text-green-100',
        state === 'offline' &&
          'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100',
        (state === 'connecting' || state === 'reconnecting') &&
          'border-slate-300 bg-slate-50 text-slate-800 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100',
        state === 'stopped' && 'border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100',
      )}
    >
      <Icon
        className={cn('h-3.5 w-3.5 shrink-0', (state === 'connecting' || state === 'reconnecting') && 'animate-spin')}
        aria-hidden
      />
      {connectionText(snapshot)}
    </p>
  );
}
