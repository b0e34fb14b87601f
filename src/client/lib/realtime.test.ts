import type { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DOMAIN_EVENT_TYPES } from '../../domain/events';
import type { SessionDto } from '../../domain/schemas/auth';
import { useAuthStore } from '../stores/auth-store';
import { backoffDelay, EVENT_ROOTS, rootsFor, runRealtime } from './realtime';
import { memoryStorage } from './memory-storage';

describe('rootsFor', () => {
  it('maps each event kind to the query roots it can change', () => {
    expect(rootsFor('task.updated')).toEqual(['tasks', 'projects', 'dashboard']);
    expect(rootsFor('project.deleted')).toEqual(['projects', 'tasks', 'dashboard']);
    expect(rootsFor('team.member_removed')).toContain('teams');
    expect(rootsFor('invitation.created')).toEqual(['invitations', 'teams', 'dashboard']);
    expect(rootsFor('notification.created')).toEqual(['notifications']);
    expect(rootsFor('session.revoked')).toEqual([]);
    expect(rootsFor('something.else')).toEqual([]);
  });

  it('has one row per domain event name, and no other', () => {
    expect(Object.keys(EVENT_ROOTS).sort()).toEqual([...DOMAIN_EVENT_TYPES].sort());
  });
});

describe('backoffDelay', () => {
  it('grows from half a second and is capped at 15 s', () => {
    for (let i = 0; i < 50; i++) {
      expect(backoffDelay(0)).toBeGreaterThanOrEqual(250);
      expect(backoffDelay(0)).toBeLessThanOrEqual(500);
      expect(backoffDelay(3)).toBeGreaterThanOrEqual(2000);
      expect(backoffDelay(20)).toBeLessThanOrEqual(15_000);
    }
  });
});

function sseResponse(chunks: string[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

describe('runRealtime', () => {
  beforeEach(() => {
    vi.stubGlobal('localStorage', memoryStorage());
    vi.stubGlobal('sessionStorage', memoryStorage());
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends the token in a header, invalidates by root, and reconnects after the stream ends', async () => {
    useAuthStore.getState().setSession({ access_token: 'tok', user: { id: 'u1' } } as unknown as SessionDto);
    const invalidated: string[] = [];
    const qc = { invalidateQueries: async ({ queryKey }: { queryKey: string[] }) => void invalidated.push(queryKey[0]!) };
    const controller = new AbortController();
    const calls: RequestInit[] = [];
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        urls.push(url);
        calls.push(init);
        if (calls.length === 1) {
          // A split message, a heartbeat, then the server goes away.
          return sseResponse(['event: ready\ndata: {}\n\n: ping\n\n', 'data: {"type":"notification.cr', 'eated"}\n\n']);
        }
        if (calls.length === 2) return sseResponse(['event: ready\ndata: {}\n\n']);
        controller.abort();
        throw new DOMException('aborted', 'AbortError');
      }),
    );
    await runRealtime(qc as unknown as QueryClient, controller.signal);
    expect(urls.every((u) => u === '/api/events')).toBe(true);
    expect((calls[0]!.headers as Record<string, string>).authorization).toBe('Bearer tok');
    expect(calls.length).toBe(3);
    // First connection: the notification event; the reconnect refreshes every root.
    expect(invalidated).toContain('notifications');
    expect(new Set(invalidated)).toEqual(
      new Set(['notifications', 'tasks', 'projects', 'teams', 'invitations', 'dashboard', 'notes', 'fields', 'time', 'timer']),
    );
  }, 10_000);

  it('meets an expired token with the shared refresh and opens the stream on the new token', async () => {
    useAuthStore.getState().setSession({ access_token: 'old', refresh_token: 'r1', user: { id: 'u1' } } as unknown as SessionDto);
    const controller = new AbortController();
    const seen: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        if (url.startsWith('/api/auth/token')) {
          seen.push('refresh');
          return new Response(JSON.stringify({ access_token: 'new', refresh_token: 'r2', user: { id: 'u1' } }), { status: 200 });
        }
        const auth = (init.headers as Record<string, string>).authorization ?? 'none';
        seen.push(auth);
        if (auth !== 'Bearer new') return new Response(null, { status: 401 });
        controller.abort();
        return sseResponse(['event: ready\ndata: {}\n\n']);
      }),
    );
    await runRealtime({ invalidateQueries: async () => {} } as unknown as QueryClient, controller.signal);
    expect(seen).toEqual(['Bearer old', 'refresh', 'Bearer new']);
  });

  it('stops when signed out', async () => {
    useAuthStore.getState().signOutLocal();
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    await runRealtime({} as QueryClient, new AbortController().signal);
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
