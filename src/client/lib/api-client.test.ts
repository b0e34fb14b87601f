import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionDto } from '../../domain/schemas/auth';
import { useAuthStore } from '../stores/auth-store';
import { ApiError, api, withFreshToken } from './api-client';
import { memoryStorage } from './memory-storage';

const session = (n: number) =>
  ({
    access_token: `access-${n}`,
    refresh_token: `refresh-${n}`,
    expires_in: 3600,
    expires_at: 0,
    token_type: 'bearer',
    user: { id: 'u1' },
  }) as unknown as SessionDto;

const json = (status: number, body: unknown = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const REFRESH_URL = '/api/auth/token?grant_type=refresh_token';

interface Call {
  url: string;
  authorization?: string;
  body?: string;
}

/**
 * A fake server: the refresh endpoint answers `refresh()` (a new session by default, after a tick so that
 * concurrent callers overlap), every other URL answers 200 to the `valid` token and 401 to any other.
 */
function fakeServer(options: { refresh?: () => Response; valid?: string } = {}) {
  const calls: Call[] = [];
  let refreshed = 1;
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const headers = (init.headers ?? {}) as Record<string, string>;
    calls.push({ url, authorization: headers.authorization, body: init.body as string | undefined });
    if (url === REFRESH_URL) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return options.refresh ? options.refresh() : json(200, session(++refreshed));
    }
    return headers.authorization === `Bearer ${options.valid ?? 'access-2'}` ? json(200, { ok: true }) : json(401);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    refreshes: () => calls.filter((c) => c.url === REFRESH_URL),
    requests: () => calls.filter((c) => c.url !== REFRESH_URL),
  };
}

describe('withFreshToken: the one refresh-and-retry', () => {
  beforeEach(() => {
    vi.stubGlobal('localStorage', memoryStorage());
    vi.stubGlobal('sessionStorage', memoryStorage());
    useAuthStore.getState().setSession(session(1));
  });
  afterEach(() => vi.unstubAllGlobals());

  it('answers a request that succeeds without refreshing', async () => {
    const server = fakeServer({ valid: 'access-1' });
    await expect(api.get('/api/things')).resolves.toEqual({ ok: true });
    expect(server.refreshes()).toHaveLength(0);
    expect(server.requests().map((c) => c.authorization)).toEqual(['Bearer access-1']);
  });

  it('meets a 401 with one refresh (spending the stored refresh token) and one retry on the new token', async () => {
    const server = fakeServer();
    await expect(api.get('/api/things')).resolves.toEqual({ ok: true });
    expect(server.refreshes()).toHaveLength(1);
    expect(JSON.parse(server.refreshes()[0]!.body!)).toEqual({ refresh_token: 'refresh-1' });
    expect(server.requests().map((c) => c.authorization)).toEqual(['Bearer access-1', 'Bearer access-2']);
    expect(useAuthStore.getState().session?.access_token).toBe('access-2');
  });

  it('shares one refresh between requests that meet a 401 at the same time', async () => {
    const server = fakeServer();
    const results = await Promise.all([api.get('/api/a'), api.post('/api/b', { x: 1 }), api.delete('/api/c')]);
    expect(results).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(server.refreshes()).toHaveLength(1);
    expect(server.requests().filter((c) => c.authorization === 'Bearer access-2')).toHaveLength(3);
  });

  it('retries once only: a 401 again after the refresh is the answer, without a second refresh', async () => {
    const server = fakeServer({ valid: 'none-is-valid' });
    const failure = await api.get('/api/things').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 401, code: 'unauthenticated' });
    expect(server.refreshes()).toHaveLength(1);
    expect(server.requests()).toHaveLength(2);
    // The refresh itself succeeded: the session is the new one (the ticker decides later whether it lives on).
    expect(useAuthStore.getState().session?.access_token).toBe('access-2');
  });

  it('signs out when the server refuses the refresh, and answers the first 401 without a retry', async () => {
    const server = fakeServer({ refresh: () => json(401, { error: { code: 'invalid_grant', message: 'x' } }) });
    const failure = await api.get('/api/things').catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 401, code: 'unauthenticated' });
    expect(server.refreshes()).toHaveLength(1);
    expect(server.requests()).toHaveLength(1);
    expect(useAuthStore.getState().isAuthenticated).toBe(false);
    expect(useAuthStore.getState().session).toBeNull();
  });

  it('keeps the session when the refresh fails for another reason (a 503), and answers the 401', async () => {
    const server = fakeServer({ refresh: () => json(503) });
    const failure = await api.get('/api/things').catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 401 });
    expect(server.requests()).toHaveLength(1);
    expect(useAuthStore.getState().session?.access_token).toBe('access-1');
  });

  it('does not refresh for a request sent without a token (signed out, or anonymous)', async () => {
    const server = fakeServer();
    await expect(api.get('/api/public', { anonymous: true })).rejects.toMatchObject({ status: 401 });
    useAuthStore.getState().signOutLocal();
    await expect(api.get('/api/things')).rejects.toMatchObject({ status: 401 });
    expect(server.refreshes()).toHaveLength(0);
    expect(server.requests().map((c) => c.authorization)).toEqual([undefined, undefined]);
  });

  it('serves any transport: the attempt gets the token, a retry the refreshed one', async () => {
    fakeServer();
    const tokens: (string | undefined)[] = [];
    const answer = await withFreshToken(async (token) => {
      tokens.push(token);
      return { status: token === 'access-2' ? 201 : 401 };
    });
    expect(answer.status).toBe(201);
    expect(tokens).toEqual(['access-1', 'access-2']);
  });
});

describe('revalidate: the last answer kept and sent back as If-None-Match (issue 42)', () => {
  beforeEach(() => {
    vi.stubGlobal('localStorage', memoryStorage());
    vi.stubGlobal('sessionStorage', memoryStorage());
    useAuthStore.getState().setSession(session(1));
  });
  afterEach(() => vi.unstubAllGlobals());

  /** A server whose answer to /api/x carries ETag "v<version>" and answers 304 to that tag. */
  function taggedServer() {
    const state = { version: 1, asked: [] as (string | undefined)[] };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit = {}) => {
        const asked = (init.headers as Record<string, string>)['if-none-match'];
        state.asked.push(asked);
        const etag = `W/"v${state.version}"`;
        if (asked === etag) return new Response(null, { status: 304, headers: { etag } });
        return new Response(JSON.stringify({ version: state.version }), {
          status: 200,
          headers: { 'content-type': 'application/json', etag },
        });
      }),
    );
    return state;
  }

  it('returns the kept answer on a 304, the new one after a change, and forgets them when the person changes', async () => {
    const server = taggedServer();
    expect(await api.get('/api/x', { query: { a: 1 }, revalidate: true })).toEqual({ version: 1 });
    expect(await api.get('/api/x', { query: { a: 1 }, revalidate: true })).toEqual({ version: 1 });
    expect(server.asked).toEqual([undefined, 'W/"v1"']);
    server.version = 2;
    expect(await api.get('/api/x', { query: { a: 1 }, revalidate: true })).toEqual({ version: 2 });
    expect(server.asked.at(-1)).toBe('W/"v1"');
    // Without `revalidate`, nothing is sent or kept.
    await api.get('/api/x', { query: { a: 1 } });
    expect(server.asked.at(-1)).toBeUndefined();
    // Someone else signs in: they start with no kept answers.
    useAuthStore.getState().setSession({ ...session(3), user: { id: 'u2' } } as unknown as SessionDto);
    await api.get('/api/x', { query: { a: 1 }, revalidate: true });
    expect(server.asked.at(-1)).toBeUndefined();
  });
});
