import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SessionDto } from '../../src/domain/schemas/auth';
import type { SessionListDto } from '../../src/domain/schemas/security';
import { createUser, sessionIdOf, type TestUser } from '../factories';
import { setupTestApp } from '../helpers/app';

/** Settings → Security, sessions: listed with device, IP and last seen; signed out one by one or all others. */

const ctx = setupTestApp();
let baseUrl = '';
beforeAll(async () => {
  baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});

const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

/** A password sign-in from this browser and address. */
async function signInFrom(user: TestUser, userAgent: string, ip: string): Promise<SessionDto> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/token?grant_type=password',
    headers: { 'user-agent': userAgent },
    remoteAddress: ip,
    payload: { email: user.email, password: user.password },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const as = (session: SessionDto) => ({ authorization: `Bearer ${session.access_token}` });

async function listSessions(session: SessionDto) {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/me/sessions', headers: as(session) });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as SessionListDto).sessions;
}

const refresh = (session: SessionDto) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/auth/token?grant_type=refresh_token',
    payload: { refresh_token: session.refresh_token },
  });

const sessionId = (session: SessionDto) => sessionIdOf(session.access_token);

/** An event stream of `session`, read raw: whether it ended, and whether a text arrived on it. */
async function openStream(session: SessionDto) {
  const res = await fetch(`${baseUrl}/api/events`, { headers: { ...as(session), accept: 'text/event-stream' } });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let ended = false;
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    ended = true;
  })();
  /** Resolves when `seen` holds or the stream ends, at most `ms` later. */
  const until = async (seen: () => boolean, ms = 3000) => {
    const deadline = Date.now() + ms;
    while (!seen() && !ended && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  };
  await until(() => text.includes('ready'));
  return {
    get ended() {
      return ended;
    },
    /** Waits for the stream to end (true) or gives up after `ms` (false). */
    ends: async (ms = 3000) => {
      await Promise.race([pump, new Promise((r) => setTimeout(r, ms))]);
      return ended;
    },
    /** Publishes an event only this user's streams get, and waits for it: the stream still delivers. */
    delivers: async (userId: string) => {
      const notificationId = randomUUID();
      ctx.app.deps.events.publish({
        type: 'notification.created',
        teamId: randomUUID(),
        actorId: userId,
        userId,
        notificationId,
      });
      await until(() => text.includes(notificationId));
      return text.includes(notificationId);
    },
    close: () => reader.cancel().catch(() => {}),
  };
}

describe('active sessions', () => {
  it('lists the live sessions with their device, IP and last activity, and marks the current one', async () => {
    const user = await createUser(ctx.app);
    const laptop = await signInFrom(user, CHROME_LINUX, '203.0.113.5');
    const desktop = await signInFrom(user, FIREFOX_WINDOWS, '198.51.100.7');

    const sessions = await listSessions(laptop);
    expect(sessions).toHaveLength(3);
    const mine = sessions.find((s) => s.current);
    expect(mine).toMatchObject({ id: sessionId(laptop), device: 'Chrome on Linux', ip: '203.0.113.5' });
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(sessions.find((s) => s.id === sessionId(desktop))).toMatchObject({
      device: 'Firefox on Windows',
      ip: '198.51.100.7',
      current: false,
    });
    for (const s of sessions) expect(Date.parse(s.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(s.createdAt));

    // A refresh moves 'last seen' and puts that session first.
    const refreshed = await refresh(desktop);
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const after = await listSessions(laptop);
    expect(after[0]!.id).toBe(sessionId(desktop));
    expect(Date.parse(after[0]!.lastSeenAt)).toBeGreaterThan(Date.parse(after[0]!.createdAt));
    // Asked with the other session, that one is current.
    expect((await listSessions(refreshed.json())).find((s) => s.current)?.id).toBe(sessionId(desktop));
  });

  it('signing out one session refuses its refresh and its token, closes its event stream, and leaves the others', async () => {
    const user = await createUser(ctx.app);
    const here = await signInFrom(user, CHROME_LINUX, '203.0.113.5');
    const there = await signInFrom(user, FIREFOX_WINDOWS, '198.51.100.7');
    const thereStream = await openStream(there);
    const hereStream = await openStream(here);

    const res = await ctx.app.inject({ method: 'DELETE', url: `/api/me/sessions/${sessionId(there)}`, headers: as(here) });
    expect(res.statusCode, res.body).toBe(204);

    // Ended by the revocation, not by a heartbeat (ten times longer).
    expect(await thereStream.ends()).toBe(true);
    expect(await hereStream.delivers(user.id)).toBe(true);
    expect(hereStream.ended).toBe(false);
    hereStream.close();

    const refused = await refresh(there);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('invalid_grant');
    expect((await ctx.app.inject({ method: 'GET', url: '/api/auth/user', headers: as(there) })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/auth/user', headers: as(here) })).statusCode).toBe(200);
    expect((await listSessions(here)).map((s) => s.id)).not.toContain(sessionId(there));

    // Signed out already: not found, as a session that never was.
    const again = await ctx.app.inject({ method: 'DELETE', url: `/api/me/sessions/${sessionId(there)}`, headers: as(here) });
    expect(again.statusCode).toBe(404);
    expect(again.json().error.reason).toBe('session_not_found');
  });

  it("another user's session is not found, and stays signed in", async () => {
    const [alice, mallory] = await Promise.all([createUser(ctx.app), createUser(ctx.app)]);
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/me/sessions/${sessionId(alice.session)}`,
      headers: mallory.auth,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.reason).toBe('session_not_found');
    expect(
      (await ctx.app.inject({ method: 'DELETE', url: `/api/me/sessions/${randomUUID()}`, headers: mallory.auth })).statusCode,
    ).toBe(404);
    expect(
      (await ctx.app.inject({ method: 'DELETE', url: '/api/me/sessions/not-a-uuid', headers: mallory.auth })).statusCode,
    ).toBe(400);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/auth/user', headers: alice.auth })).statusCode).toBe(200);
    expect((await refresh(alice.session)).statusCode).toBe(200);
    // Nobody else's sessions are listed.
    expect((await listSessions(mallory.session)).map((s) => s.id)).toEqual([sessionId(mallory.session)]);
  });

  it('signing out all other sessions keeps the current one and closes the others’ streams', async () => {
    const user = await createUser(ctx.app);
    const other = await createUser(ctx.app);
    const here = await signInFrom(user, CHROME_LINUX, '203.0.113.5');
    const phone = await signInFrom(user, FIREFOX_WINDOWS, '198.51.100.7');
    const phoneStream = await openStream(phone);

    const res = await ctx.app.inject({ method: 'POST', url: '/api/me/sessions/revoke-others', headers: as(here) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ revoked: 2 });

    expect(await phoneStream.ends()).toBe(true);
    expect((await listSessions(here)).map((s) => s.id)).toEqual([sessionId(here)]);
    expect((await refresh(phone)).statusCode).toBe(400);
    expect((await refresh(user.session)).statusCode).toBe(400);
    expect((await refresh(here)).statusCode).toBe(200);
    // Another user's sessions are untouched.
    expect((await refresh(other.session)).statusCode).toBe(200);
  });

  it('signing out the current session through the list is a sign-out', async () => {
    const user = await createUser(ctx.app);
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/me/sessions/${sessionId(user.session)}`,
      headers: user.auth,
    });
    expect(res.statusCode).toBe(204);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/auth/user', headers: user.auth })).statusCode).toBe(401);
  });
});
