import type { QueryClient } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type DomainEventType, isDomainEventType } from '../../domain/events';
import { useAuthStore } from '../stores/auth-store';
import { withFreshToken } from './api-client';
import { type QueryRoot, rootKey } from './query-keys';
import { backoffDelay, readEvents, sleep, streamAttempt } from './sse';

export { backoffDelay };

/**
 * One realtime stream per tab while signed in: Server-Sent Events read with fetch, so the access
 * token travels in the Authorization header (never in a URL, where it would be logged). The stream
 * reconnects by itself with backoff (a server restart, a lost network, an expired token), and each
 * event refreshes the affected TanStack Query roots.
 */

type Roots = readonly QueryRoot[];

/** The roots an event may leave stale (the admin pages are not live). */
const ALL_ROOTS: Roots = [
  'tasks',
  'projects',
  'teams',
  'invitations',
  'dashboard',
  'notifications',
  'notes',
  'fields',
  'time',
  'timer',
];

// Moving a task also changes its project's progress and the dashboard's figures.
const TASK: Roots = ['tasks', 'projects', 'dashboard'];
const PROJECT: Roots = ['projects', 'tasks', 'dashboard'];
// Membership changes what one may see everywhere.
const TEAM: Roots = ['teams', 'projects', 'tasks', 'invitations', 'dashboard'];
const INVITATION: Roots = ['invitations', 'teams', 'dashboard'];

/**
 * Which data each event can change. Exhaustive over the domain's event names: a new event name
 * without a row here fails the typecheck.
 */
export const EVENT_ROOTS = {
  'team.created': TEAM,
  'team.updated': TEAM,
  'team.deleted': TEAM,
  'team.member_added': TEAM,
  'team.member_updated': TEAM,
  'team.member_removed': TEAM,
  'invitation.created': INVITATION,
  'invitation.cancelled': INVITATION,
  'invitation.accepted': INVITATION,
  'invitation.declined': INVITATION,
  'project.created': PROJECT,
  'project.updated': PROJECT,
  'project.deleted': PROJECT,
  'task.created': TASK,
  'task.updated': TASK,
  'task.deleted': TASK,
  // The task page's parts are under the 'tasks' root, like the card whose counts they change.
  'task.comment_added': ['tasks'],
  'task.detail_changed': ['tasks'],
  'notification.created': ['notifications'],
  // The server ends a revoked session's stream; the client refreshes (or signs out) and reconnects.
  'session.revoked': [],
  'note.created': ['notes'],
  'note.updated': ['notes'],
  'note.deleted': ['notes'],
  // A project's workflow: its statuses, its board (a delete moves tasks), its progress.
  'status.created': PROJECT,
  'status.updated': PROJECT,
  'status.deleted': PROJECT,
  // A team's custom fields (issue 38): their lists, and tasks (removing an option or a field clears values).
  'field.created': ['fields', 'tasks'],
  'field.updated': ['fields', 'tasks'],
  'field.deleted': ['fields', 'tasks'],
  // Time tracking (issue 39): an entry changes the timesheets and the task's (and its ancestors') logged time; a
  // timer is the person's own, on their other devices.
  'time_entry.changed': ['time', 'tasks'],
  'timer.changed': ['timer'],
} as const satisfies Record<DomainEventType, Roots>;

/** Which data an event can change; an event this client does not know (a newer server's) changes nothing here. */
export function rootsFor(type: string): Roots {
  return isDomainEventType(type) ? EVENT_ROOTS[type] : [];
}

/** A server heartbeat comes every 20 s; silence for longer means a dead connection. */
const SILENCE_MS = 45_000;
/** Events arriving together cause one refetch per root. */
const BATCH_MS = 50;

/** Opens the stream and keeps it open until `signal` aborts. */
export async function runRealtime(queryClient: QueryClient, signal: AbortSignal): Promise<void> {
  const pending = new Set<QueryRoot>();
  let flushTimer: ReturnType<typeof setTimeout> | null = null;
  const invalidate = (roots: Roots) => {
    for (const r of roots) pending.add(r);
    flushTimer ??= setTimeout(() => {
      flushTimer = null;
      const roots = [...pending];
      pending.clear();
      for (const root of roots) void queryClient.invalidateQueries({ queryKey: rootKey(root) });
    }, BATCH_MS);
  };

  let attempt = 0;
  let connectedBefore = false;
  while (!signal.aborted) {
    if (!useAuthStore.getState().session?.access_token) return;
    const connection = streamAttempt(signal, SILENCE_MS);
    const { alive } = connection;
    try {
      // An expired access token is refreshed and the stream opened again at once (withFreshToken); a dead session
      // signs out (and stops us). A 401 still after that is retried after the backoff, like any failure.
      const res = await withFreshToken((token) =>
        fetch('/api/events', {
          headers: { accept: 'text/event-stream', ...(token && { authorization: `Bearer ${token}` }) },
          cache: 'no-store',
          signal: connection.signal,
        }),
      );
      if (res.ok && res.body) {
        alive();
        await readEvents(res.body, alive, (m) => {
          if (m.event === 'ready') {
            attempt = 0;
            // Anything may have changed while we were away.
            if (connectedBefore) invalidate(ALL_ROOTS);
            connectedBefore = true;
          } else if (m.event === 'resync') {
            invalidate(ALL_ROOTS);
          } else if (m.event === 'message') {
            try {
              invalidate(rootsFor((JSON.parse(m.data) as { type: string }).type));
            } catch {
              // not ours
            }
          }
        });
      }
    } catch {
      // Network error or abort: retry below.
    } finally {
      connection.close();
    }
    if (signal.aborted) break;
    await sleep(backoffDelay(attempt++), signal);
  }
  if (flushTimer) clearTimeout(flushTimer);
}

/** Mounted once in the app layout: a stream for as long as the user is signed in. */
export function useRealtime(): void {
  const queryClient = useQueryClient();
  const userId = useAuthStore((s) => s.user?.id ?? null);
  useEffect(() => {
    if (!userId) return;
    const controller = new AbortController();
    void runRealtime(queryClient, controller.signal);
    return () => controller.abort();
  }, [queryClient, userId]);
}
