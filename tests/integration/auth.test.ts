import { describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import { createUser, signIn, uniqueEmail } from '../factories';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp();

/** POST /api/auth/token with a refresh token. */
const refreshWith = (token: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/auth/token?grant_type=refresh_token', payload: { refresh_token: token } });

describe('auth', () => {
  it('signs up and then signs in with the spec session shape', async () => {
    const email = uniqueEmail('Mixed.Case').replace('mixed', 'MIXED');
    const signup = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email, password: 'secret123', fullName: 'Ada Lovelace King' },
    });
    expect(signup.statusCode).toBe(201);
    const { user } = signup.json();
    expect(user).toMatchObject({
      email: email.toLowerCase(),
      firstName: 'Ada',
      lastName: 'Lovelace King',
      role: 'team_member',
      isActive: true,
    });

    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/token?grant_type=password',
      payload: { email: email.toUpperCase(), password: 'secret123' },
    });
    expect(res.statusCode).toBe(200);
    const session = res.json();
    expect(session.token_type).toBe('bearer');
    expect(session.expires_in).toBe(3600);
    expect(session.expires_at).toBeGreaterThan(Date.now() / 1000);
    expect(typeof session.access_token).toBe('string');
    expect(typeof session.refresh_token).toBe('string');
    expect(session.user.id).toBe(user.id);

    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe(email.toLowerCase());
  });

  it('refuses a duplicate email with 409 and a clear message', async () => {
    const u = await createUser(ctx.app);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: u.email.toUpperCase(), password: 'another1', fullName: 'Someone Else' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: { code: 'conflict', reason: 'email_taken', message: MSG.emailTaken } });
  });

  it('answers a wrong password and an unknown email alike: 400 invalid_credentials', async () => {
    const u = await createUser(ctx.app);
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/token?grant_type=password',
      payload: { email: u.email, password: 'wrong password' },
    });
    const unknown = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/token?grant_type=password',
      payload: { email: uniqueEmail('nobody'), password: 'wrong password' },
    });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: { code: 'invalid_credentials', message: MSG.invalidCredentials } });
    }
  });

  it('rotates refresh tokens: one use, a retry of the parent gets the live token, older reuse revokes', async () => {
    const u = await createUser(ctx.app);
    const refresh = refreshWith;
    const first = await refresh(u.session.refresh_token);
    expect(first.statusCode).toBe(200);
    const t1 = first.json().refresh_token as string;
    expect(t1).not.toBe(u.session.refresh_token);

    // A retry with the immediate parent, within REFRESH_REUSE_INTERVAL, returns the same live token.
    const retry = await refresh(u.session.refresh_token);
    expect(retry.statusCode).toBe(200);
    expect(retry.json().refresh_token).toBe(t1);

    const second = await refresh(t1);
    expect(second.statusCode).toBe(200);
    const t2 = second.json().refresh_token as string;
    const access2 = second.json().access_token as string;

    // The original token is now two generations old: its reuse revokes the whole session.
    const reuse = await refresh(u.session.refresh_token);
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().error.code).toBe('invalid_grant');
    expect((await refresh(t2)).statusCode).toBe(400);
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { authorization: `Bearer ${access2}` },
    });
    expect(me.statusCode).toBe(401);
  });

  it('20 parallel refreshes with one token yield exactly one new token', async () => {
    const u = await createUser(ctx.app);
    const results = await Promise.all(Array.from({ length: 20 }, () => refreshWith(u.session.refresh_token)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(results.map((r) => r.json().refresh_token)).size).toBe(1);
  });

  it('logout revokes the session and its refresh token', async () => {
    const u = await createUser(ctx.app);
    const out = await ctx.app.inject({ method: 'POST', url: '/api/auth/logout', headers: u.auth });
    expect(out.statusCode).toBe(204);
    const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/user', headers: u.auth });
    expect(me.statusCode).toBe(401);
    expect(me.json().error.code).toBe('unauthenticated');
    expect((await refreshWith(u.session.refresh_token)).statusCode).toBe(400);
  });

  it('refuses a deactivated user at sign-in, refresh and on every call', async () => {
    const u = await createUser(ctx.app);
    await ctx.database.db.execute((await import('drizzle-orm')).sql`update users set is_active = false where id = ${u.id}`);
    await expect(signIn(ctx.app, u.email, u.password)).rejects.toThrow(/400/);
    const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/user', headers: u.auth });
    expect(me.statusCode).toBe(401);
    expect((await refreshWith(u.session.refresh_token)).statusCode).toBe(400);
  });

  it('rejects tampered, alg=none and refresh-as-bearer tokens with 401', async () => {
    const u = await createUser(ctx.app);
    const [h, p] = u.token.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...payload, sub: crypto.randomUUID() })).toString('base64url')}.${u.token.split('.')[2]}`;
    for (const token of [none, forged, u.session.refresh_token, 'garbage']) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/user',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(401);
    }
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/auth/user' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('bad input never yields a 500', () => {
  it('malformed JSON → 400 with the error shape', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
  });

  it('missing fields → 400 with per-field messages', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: 'x@example.com' } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.fields.password).toBe(MSG.passwordRequired);
    expect(body.error.fields.fullName).toBe(MSG.fullNameRequired);
  });

  it('a 2 MB body → 413', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: 'big@example.com', password: 'x'.repeat(2 * 1024 * 1024), fullName: 'Big' },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('payload_too_large');
  });

  it('unknown keys such as role are rejected, never written', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: uniqueEmail(), password: 'secret123', fullName: 'Sneaky', role: 'super_admin' },
    });
    expect(res.statusCode).toBe(400);
  });

  it('wrong types and an unknown grant type → 400', async () => {
    const a = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/token?grant_type=password',
      payload: { email: 42, password: ['x'] },
    });
    expect(a.statusCode).toBe(400);
    const b = await ctx.app.inject({ method: 'POST', url: '/api/auth/token?grant_type=magic', payload: {} });
    expect(b.statusCode).toBe(400);
  });
});

describe('system', () => {
  it('GET /api/health → 200 {status: ok, version, schemaVersion}', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', version: expect.any(String), schemaVersion: expect.any(Number) });
  });

  it('GET /api/openapi.json lists the auth routes', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/auth/signup', '/api/auth/token', '/api/auth/logout', '/api/auth/user', '/api/health']),
    );
  });

  it('sends security headers', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['content-security-policy']).toContain("object-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBeDefined();
  });

  it('unknown API path → 404 with the error shape', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
  });
});
