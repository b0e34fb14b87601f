import { eq, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import { hashPassword } from '../../src/server/lib/passwords';
import { refreshTokens, sessions } from '../../src/server/db/schema';
import { DEFAULT_SESSION_POLICY } from '../../src/server/modules/auth/session-policy';
import * as usersRepo from '../../src/server/modules/users/users.repo';
import { createUser, signIn, type TestUser, uniqueEmail } from '../factories';
import { setupTestApp } from '../helpers/app';

// Security review, second round (issue 20): findings 4 and, from 8, Cache-Control and common passwords.
const ctx = setupTestApp();

const refresh = (token: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/auth/token?grant_type=refresh_token', payload: { refresh_token: token } });

const me = (token: string) =>
  ctx.app.inject({ method: 'GET', url: '/api/auth/user', headers: { authorization: `Bearer ${token}` } });

const sessionIdOf = (u: TestUser) => decodeJwt(u.token).sid as string;

/** Moves the rotation of a session's spent refresh tokens `seconds` into the past (no sleeping). */
async function ageSpentTokens(sessionId: string, seconds: number) {
  await ctx.database.db
    .update(refreshTokens)
    .set({ usedAt: sql`${refreshTokens.usedAt} - make_interval(secs => ${seconds})` })
    .where(eq(refreshTokens.sessionId, sessionId));
}

/** Sets a session's start and last refresh `days` ago. */
async function ageSession(sessionId: string, created: number, refreshed: number | null) {
  await ctx.database.db
    .update(sessions)
    .set({
      createdAt: sql`now() - make_interval(days => ${created})`,
      refreshedAt: refreshed === null ? null : sql`now() - make_interval(days => ${refreshed})`,
    })
    .where(eq(sessions.id, sessionId));
}

const DAY = 24 * 60 * 60;
const idleDays = DEFAULT_SESSION_POLICY.idleTimeout / DAY;
const maxDays = DEFAULT_SESSION_POLICY.maxLifetime / DAY;

describe('finding 4: refresh-token reuse grace and session lifetimes', () => {
  it('finding 4: a thief who refreshes first is cut off when the victim refreshes after the grace', async () => {
    const victim = await createUser(ctx.app);
    const stolen = victim.session.refresh_token;

    const thief = await refresh(stolen);
    expect(thief.statusCode).toBe(200);
    const thiefSession = thief.json();

    await ageSpentTokens(sessionIdOf(victim), DEFAULT_SESSION_POLICY.refreshReuseInterval + 1);
    const late = await refresh(stolen);
    expect(late.statusCode).toBe(400);
    expect(late.json().error.code).toBe('invalid_grant');

    // The whole session is gone: the thief's refresh token and access token, and the victim's.
    expect((await refresh(thiefSession.refresh_token)).statusCode).toBe(400);
    expect((await me(thiefSession.access_token)).statusCode).toBe(401);
    expect((await me(victim.token)).statusCode).toBe(401);
  });

  it('finding 4: within the interval a retry with the spent token gets the live token back', async () => {
    const u = await createUser(ctx.app);
    const first = await refresh(u.session.refresh_token);
    expect(first.statusCode).toBe(200);

    await ageSpentTokens(sessionIdOf(u), DEFAULT_SESSION_POLICY.refreshReuseInterval - 2);
    const retry = await refresh(u.session.refresh_token);
    expect(retry.statusCode).toBe(200);
    expect(retry.json().refresh_token).toBe(first.json().refresh_token);
    expect((await refresh(retry.json().refresh_token)).statusCode).toBe(200);
  });

  it(`finding 4: a session idle for more than ${idleDays} days cannot be refreshed and is revoked`, async () => {
    const u = await createUser(ctx.app);
    const other = await signIn(ctx.app, u.email, u.password);
    await ageSession(sessionIdOf(u), idleDays + 5, idleDays + 1);
    await ageSession(sessionIdOf(other), idleDays + 5, idleDays - 1);

    const res = await refresh(u.session.refresh_token);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('invalid_grant');
    expect((await me(u.token)).statusCode).toBe(401);
    // Refreshed within the idle timeout: still alive. Only the idle session ended.
    expect((await refresh(other.session.refresh_token)).statusCode).toBe(200);
  });

  it(`finding 4: a session older than ${maxDays} days cannot be refreshed, however active, and is revoked`, async () => {
    const u = await createUser(ctx.app);
    const younger = await signIn(ctx.app, u.email, u.password);
    await ageSession(sessionIdOf(u), maxDays + 1, 0);
    await ageSession(sessionIdOf(younger), maxDays - 1, 0);

    const res = await refresh(u.session.refresh_token);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('invalid_grant');
    expect((await me(u.token)).statusCode).toBe(401);
    expect((await refresh(younger.session.refresh_token)).statusCode).toBe(200);
  });

  it('finding 4: a session never refreshed counts its idle time from sign-in', async () => {
    const u = await createUser(ctx.app);
    await ageSession(sessionIdOf(u), idleDays + 1, null);
    expect((await refresh(u.session.refresh_token)).statusCode).toBe(400);
    expect((await me(u.token)).statusCode).toBe(401);
  });
});

describe('finding 8: responses that carry tokens are not cached', () => {
  const expectNoStore = (res: { headers: Record<string, unknown> }) => {
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.pragma).toBe('no-cache');
  };

  it('finding 8: both grants of POST /api/auth/token send Cache-Control: no-store', async () => {
    const u = await createUser(ctx.app);
    const password = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/token?grant_type=password',
      payload: { email: u.email, password: u.password },
    });
    expect(password.statusCode).toBe(200);
    expectNoStore(password);
    const refreshed = await refresh(u.session.refresh_token);
    expect(refreshed.statusCode).toBe(200);
    expectNoStore(refreshed);
    // A refusal on these routes is not stored either.
    expectNoStore(await refresh('not-a-token'));
  });

  it('finding 8: the Google code exchange sends Cache-Control: no-store', async () => {
    // Its success is checked in oidc.test.ts (signInWithGoogle); the refusal here shows the route has the header.
    const res = await ctx.app.inject({ method: 'POST', url: '/api/auth/google/exchange', payload: { code: 'x'.repeat(40) } });
    expect(res.statusCode).toBe(400);
    expectNoStore(res);
  });

  it('finding 8: every route whose answer carries a token is one of those checked above', async () => {
    const spec = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<
        string,
        Record<string, { responses?: Record<string, { content?: Record<string, { schema?: { properties?: object } }> }> }>
      >;
    };
    const carrying: string[] = [];
    for (const [path, methods] of Object.entries(spec.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        for (const response of Object.values(op.responses ?? {})) {
          const properties = response.content?.['application/json']?.schema?.properties ?? {};
          if ('access_token' in properties || 'refresh_token' in properties) carrying.push(`${method.toUpperCase()} ${path}`);
        }
      }
    }
    expect(carrying.sort()).toEqual(['POST /api/auth/google/exchange', 'POST /api/auth/token']);
  });
});

describe('finding 8: common passwords', () => {
  const signup = (password: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: uniqueEmail('pw'), password, fullName: 'Pat Password' },
    });

  it('finding 8: a new password among the 10,000 most common is refused at sign-up, whatever its case', async () => {
    for (const password of ['password1', 'PassWord1', 'qwerty', 'iloveyou']) {
      const res = await signup(password);
      expect(res.statusCode, password).toBe(400);
      const { error } = res.json();
      expect(error.code).toBe('validation_failed');
      expect(error.reason).toBe('password_too_common');
      expect(error.fields).toEqual({ password: MSG.passwordTooCommon });
      expect(error.message).toBe('This password is too common. Please choose another.');
    }
  });

  it('finding 8: an uncommon password is accepted, and an existing account with a common one still signs in', async () => {
    expect((await signup('plaid walrus 42')).statusCode).toBe(201);

    // An account whose password predates the check (set straight in the database).
    const email = uniqueEmail('legacy');
    const user = await usersRepo.createOne(ctx.database.db, { email, fullName: 'Lee Legacy' });
    await usersRepo.setPassword(ctx.database.db, user.id, await hashPassword('password1'));
    await expect(signIn(ctx.app, email, 'password1')).resolves.toMatchObject({ id: user.id });
  });
});
