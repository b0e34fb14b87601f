import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import { buildApp } from '../../src/server/app';
import { openDatabase, type Database } from '../../src/server/db/client';
import { passwordCredentials } from '../../src/server/db/schema';
import { usePasswordHashing } from '../../src/server/lib/passwords';
import { TokenService } from '../../src/server/lib/tokens';
import { createUser, insertTeam, uniqueEmail } from '../factories';
import { setupTestApp, testConfig } from '../helpers/app';

/** Rate limits ON for this file (testConfig turns them off by default). */
const ctx = setupTestApp({ rateLimitEnabled: true });

let ipCounter = 0;
/** A distinct client address per test, so each test starts with full buckets. */
const freshIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

const signIn = (app: FastifyInstance, ip: string, email: string, password: string, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/token?grant_type=password',
    remoteAddress: ip,
    headers,
    payload: { email, password },
  });

/**
 * Calls `attempt` until it answers 429 and checks the allowance: `capacity`, plus what the bucket
 * refilled meanwhile (capacity per window, refilled continuously) — slow machines take a while.
 */
async function expectLimit(
  capacity: number,
  windowSeconds: number,
  attempt: (i: number) => Promise<{ statusCode: number; headers: Record<string, unknown> }>,
) {
  const started = Date.now();
  let allowed = 0;
  let res = await attempt(0);
  while (res.statusCode !== 429 && allowed < capacity * 2) {
    expect(res.statusCode, `attempt ${allowed + 1}`).toBeLessThan(429);
    allowed++;
    res = await attempt(allowed);
  }
  const refilled = Math.ceil(((Date.now() - started) / 1000) * (capacity / windowSeconds));
  expect(allowed).toBeGreaterThanOrEqual(capacity);
  expect(allowed).toBeLessThanOrEqual(capacity + refilled);
  expect(res.statusCode).toBe(429);
  expect((res as unknown as { json(): { error: { code: string } } }).json().error.code).toBe('rate_limited');
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= windowSeconds).toBe(true);
  return { allowed, retryAfter };
}

describe('rate limits', () => {
  it('sign-in: 30 per 5 minutes per IP, then 429 with Retry-After; a spoofed X-Forwarded-For does not reset it', async () => {
    const ip = freshIp();
    // Different (unknown) accounts, so only the IP bucket is under test; a new spoofed XFF each time.
    await expectLimit(30, 300, (i) =>
      signIn(ctx.app, ip, uniqueEmail('nobody'), 'wrong password', { 'x-forwarded-for': `203.0.113.${i % 250}` }),
    );
    // Another client is not affected.
    expect((await signIn(ctx.app, freshIp(), uniqueEmail('nobody'), 'wrong password')).statusCode).toBe(400);
  }, 120_000);

  // Per account: failures, not attempts, counted per account and IP (finding 3): rate-limits.test.ts.

  /** The same bad request again and again from one fresh IP. */
  const postFromOneIp = (url: string, payload: object) => {
    const ip = freshIp();
    return () => ctx.app.inject({ method: 'POST', url, remoteAddress: ip, payload });
  };

  it('sign-up: 30 per 5 minutes per IP', async () => {
    await expectLimit(30, 300, postFromOneIp('/api/auth/signup', { email: 'bad', password: 'x', fullName: '' }));
  }, 60_000);

  it('token refresh: 150 per 5 minutes per IP', async () => {
    const refresh = postFromOneIp('/api/auth/token?grant_type=refresh_token', {
      refresh_token: 'not-a-real-token-but-long-enough',
    });
    await expectLimit(150, 300, refresh);
  }, 120_000);

  it('invitations: 30 per hour per team, whoever sends them', async () => {
    const owner = await createUser(ctx.app);
    const team = await insertTeam(ctx.database.db, owner);
    const invite = (ip: string) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/teams/${team.id}/invitations`,
        remoteAddress: ip,
        headers: owner.auth,
        payload: { email: uniqueEmail('inv') },
      });
    const { retryAfter } = await expectLimit(30, 3600, () => invite(freshIp()));
    expect(retryAfter).toBeGreaterThan(60);
    // Another team has its own allowance.
    const other = await insertTeam(ctx.database.db, owner);
    const ok = await ctx.app.inject({
      method: 'POST',
      url: `/api/teams/${other.id}/invitations`,
      headers: owner.auth,
      payload: { email: uniqueEmail('inv') },
    });
    expect(ok.statusCode).toBe(201);
  }, 120_000);

  it('buckets are shared by two app instances on one database: a second instance is not a second allowance', async () => {
    // On PostgreSQL, the second instance has its own connection pool to the same database.
    let second: Database = ctx.database;
    if (ctx.databaseUrl) second = await openDatabase({ databaseUrl: ctx.databaseUrl });
    const appB = await buildApp({ config: testConfig({ rateLimitEnabled: true }), database: second });
    await appB.ready();
    try {
      const ip = freshIp();
      await expectLimit(30, 300, (i) => signIn(i % 2 ? appB : ctx.app, ip, uniqueEmail('nobody'), 'wrong password'));
      expect((await signIn(appB, ip, uniqueEmail('nobody'), 'wrong password')).statusCode).toBe(429);
      expect((await signIn(ctx.app, ip, uniqueEmail('nobody'), 'wrong password')).statusCode).toBe(429);
    } finally {
      await appB.close();
      if (second !== ctx.database) await second.close();
    }
  }, 120_000);

  it('RATE_LIMIT_ENABLED=false (rateLimitEnabled: false) turns them off', async () => {
    const appOff = await buildApp({ config: testConfig({ rateLimitEnabled: false }), database: ctx.database });
    await appOff.ready();
    try {
      const ip = freshIp();
      for (let i = 0; i < 35; i++) expect((await signIn(appOff, ip, uniqueEmail('nobody'), 'x')).statusCode).toBe(400);
    } finally {
      await appOff.close();
    }
  });
});

describe('JWT edge cases', () => {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const me = (token: string) => ctx.app.inject({ url: '/api/auth/user', headers: bearer(token) });

  it('expires to the second: a token one second past its expiry is refused, one second before it works', async () => {
    const u = await createUser(ctx.app);
    const { sub, sid } = decodeJwt(u.token) as { sub: string; sid: string };
    const tokens = new TokenService(ctx.config.authSecret, 60);
    const now = Date.now();
    const expired = await tokens.signAccess({ sub, sid }, now - 61_000);
    expect(decodeJwt(expired.token).exp).toBe(Math.floor(now / 1000) - 1);
    expect((await me(expired.token)).statusCode).toBe(401);
    const almost = await tokens.signAccess({ sub, sid }, Date.now() - 58_000);
    expect((await me(almost.token)).statusCode).toBe(200);
  });

  it('refuses HS512, a foreign secret, a wrong issuer or audience, and a token without typ', async () => {
    const u = await createUser(ctx.app);
    const { sub, sid } = decodeJwt(u.token) as { sub: string; sid: string };
    // The app's signing key, derived as TokenService does.
    const { createHmac } = await import('node:crypto');
    const key = new TextEncoder().encode(createHmac('sha256', ctx.config.authSecret).update('access-token').digest('hex'));
    const now = Math.floor(Date.now() / 1000);
    const make = (alg: string, claims: Record<string, unknown>, k: Uint8Array = key) =>
      new SignJWT({ sid, typ: 'access', ...claims })
        .setProtectedHeader({ alg, typ: 'JWT' })
        .setSubject(sub)
        .setIssuer((claims.iss as string) ?? 'crewboard')
        .setAudience((claims.aud as string) ?? 'authenticated')
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .sign(k);
    // Control: a token made the same way with HS256 works (so the refusals below are for the reason given).
    expect((await me(await make('HS256', {}))).statusCode).toBe(200);
    expect((await me(await make('HS512', {}))).statusCode).toBe(401);
    expect((await me(await make('HS256', {}, new TextEncoder().encode('x'.repeat(64))))).statusCode).toBe(401);
    expect((await me(await make('HS256', { iss: 'someone-else' }))).statusCode).toBe(401);
    expect((await me(await make('HS256', { aud: 'service_role' }))).statusCode).toBe(401);
    expect((await me(await make('HS256', { typ: 'refresh' }))).statusCode).toBe(401);
    for (const junk of ['', 'a.b.c', 'Bearer', `${u.token}x`, u.token.split('.').slice(0, 2).join('.')]) {
      const res = await ctx.app.inject({ url: '/api/auth/user', headers: bearer(junk) });
      expect(res.statusCode, junk).toBe(401);
      expect(res.json().error.code).toBe('unauthenticated');
    }
  });
});

describe('sign-in timing and answers', () => {
  // The production cost (the other apps of this file hash cheaply, as every suite does).
  beforeAll(() => usePasswordHashing('owasp'));
  it('an unknown email and a wrong password get the same answer in a comparable time', async () => {
    const u = await createUser(ctx.app);
    const time = async (email: string) => {
      const t = performance.now();
      const res = await signIn(ctx.app, freshIp(), email, 'definitely wrong');
      return { ms: performance.now() - t, status: res.statusCode, body: res.body };
    };
    await time(uniqueEmail('warm'));
    const unknown: number[] = [];
    const wrong: number[] = [];
    const bodies = new Set<string>();
    // Interleaved, so load on the machine hits both alike.
    for (let i = 0; i < 10; i++) {
      const a = await time(uniqueEmail('ghost'));
      const b = await time(u.email);
      expect([a.status, b.status]).toEqual([400, 400]);
      bodies.add(a.body).add(b.body);
      unknown.push(a.ms);
      wrong.push(b.ms);
    }
    expect(bodies.size).toBe(1);
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    const mu = median(unknown);
    const mw = median(wrong);
    console.log(`sign-in timing: unknown email median ${mu.toFixed(1)} ms, wrong password median ${mw.toFixed(1)} ms`);
    // Generous: without the dummy hash an unknown email answers ~100x faster.
    expect(mu / mw).toBeGreaterThan(0.5);
    expect(mu / mw).toBeLessThan(2);
  }, 120_000);
});

describe('passwords', () => {
  beforeAll(() => usePasswordHashing('owasp'));
  it('are stored as argon2id with m=19456, t=2, p=1', async () => {
    const u = await createUser(ctx.app);
    const [row] = await ctx.database.db.select().from(passwordCredentials).where(eq(passwordCredentials.userId, u.id));
    const [, algorithm, version, params] = row!.passwordHash.split('$');
    expect([algorithm, version]).toEqual(['argon2id', 'v=19']);
    expect(Object.fromEntries(params!.split(',').map((kv) => kv.split('=')))).toEqual({ m: '19456', t: '2', p: '1' });
  });

  it('accept 128 characters without truncation and refuse 129 with a clear message', async () => {
    const long = `${'p'.repeat(127)}X`;
    const u = await createUser(ctx.app, { password: long });
    expect((await signIn(ctx.app, freshIp(), u.email, long)).statusCode).toBe(200);
    expect((await signIn(ctx.app, freshIp(), u.email, `${'p'.repeat(127)}Y`)).statusCode).toBe(400);
    expect((await signIn(ctx.app, freshIp(), u.email, 'p'.repeat(127))).statusCode).toBe(400);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      remoteAddress: freshIp(),
      payload: { email: uniqueEmail(), password: 'q'.repeat(129), fullName: 'Long Password' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.password).toBe(MSG.passwordTooLong);
    expect(MSG.passwordTooLong).toMatch(/128/);
  });
});

describe('headers, CORS and logs', () => {
  let htmlApp: FastifyInstance;
  beforeAll(async () => {
    const clientDir = mkdtempSync(join(tmpdir(), 'crewboard-sec-'));
    writeFileSync(join(clientDir, 'index.html'), '<!doctype html><title>Crewboard</title><div id="root"></div>');
    htmlApp = await buildApp({
      config: testConfig({ clientDir, publicUrl: 'https://crewboard.example' }),
      database: ctx.database,
    });
    await htmlApp.ready();
  });
  afterAll(async () => htmlApp?.close());

  const strictHeaders = (headers: Record<string, unknown>) => {
    const csp = String(headers['content-security-policy']);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toContain("'unsafe-eval'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  };

  it('HTML pages and API answers carry a strict CSP, nosniff and a Referrer-Policy; HSTS over TLS only', async () => {
    for (const url of ['/', '/login', '/teams/123']) {
      const res = await htmlApp.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      strictHeaders(res.headers);
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    }
    const u = await createUser(ctx.app);
    for (const res of [
      await ctx.app.inject({ url: '/api/auth/user', headers: u.auth }),
      await ctx.app.inject({ url: '/api/teams/not-a-uuid', headers: u.auth }),
      await ctx.app.inject({ url: '/api/nope' }),
    ]) {
      strictHeaders(res.headers);
      // testConfig's public URL is http: no HSTS there.
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('sends no CORS headers to a foreign origin, on requests or preflights', async () => {
    const u = await createUser(ctx.app);
    const origin = 'https://evil.example';
    const get = await ctx.app.inject({ url: '/api/auth/user', headers: { ...u.auth, origin } });
    expect(get.statusCode).toBe(200);
    const preflight = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/api/teams',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
    for (const res of [get, preflight]) {
      expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('writes no token, password or refresh token to the logs of a sign-in, a call and a refresh', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = await buildApp({ config: testConfig(), database: ctx.database, logger: { level: 'info', stream } });
    await app.ready();
    try {
      const password = 'a very secret password';
      const u = await createUser(app, { password });
      const call = await app.inject({ url: '/api/auth/user', headers: u.auth });
      expect(call.statusCode).toBe(200);
      const refreshed = await app.inject({
        method: 'POST',
        url: '/api/auth/token?grant_type=refresh_token',
        payload: { refresh_token: u.session.refresh_token },
      });
      expect(refreshed.statusCode).toBe(200);
      const next = refreshed.json() as { access_token: string; refresh_token: string };
      // A failing request logs too.
      await app.inject({
        method: 'POST',
        url: '/api/auth/token?grant_type=refresh_token',
        payload: { refresh_token: 'x'.repeat(43) },
      });
      const log = lines.join('');
      expect(lines.length).toBeGreaterThan(4);
      for (const secret of [u.token, u.session.refresh_token, next.access_token, next.refresh_token, password]) {
        expect(log).not.toContain(secret);
        // Nor a recognisable piece of it (the JWT signature part).
        expect(log).not.toContain(secret.split('.').at(-1)!);
      }
    } finally {
      await app.close();
    }
  });

  it('logs one line a request at info, with its request line, status and time, and an error as an error', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const app = await buildApp({ config: testConfig(), database: ctx.database, logger: { level: 'info', stream } });
    await app.ready();
    try {
      lines.length = 0;
      expect((await app.inject('/api/health')).statusCode).toBe(200);
      expect((await app.inject('/api/tasks')).statusCode).toBe(401);
      const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(entries.map((e) => e.msg)).toEqual(['request completed', 'request completed']);
      expect(entries.map((e) => [(e.req as { url: string }).url, (e.res as { statusCode: number }).statusCode])).toEqual([
        ['/api/health', 200],
        ['/api/tasks', 401],
      ]);
      for (const e of entries) {
        expect(e.level).toBe(30);
        expect(typeof e.responseTime).toBe('number');
        expect(typeof e.reqId).toBe('string');
      }
      // At warn, a request writes nothing.
      lines.length = 0;
      app.log.level = 'warn';
      await app.inject('/api/health');
      expect(lines).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

describe('database', () => {
  it('refuses a request that carries a NUL byte with 400, not 500', async () => {
    const u = await createUser(ctx.app);
    const res = await ctx.app.inject({ method: 'POST', url: '/api/teams', headers: u.auth, payload: { name: 'Nul\u0000team' } });
    expect(res.statusCode).toBe(400);
    const count = (await ctx.database.db.execute(sql`select count(*)::int n from teams where name like 'Nul%'`)) as unknown as {
      rows: { n: number }[];
    };
    expect(count.rows[0]!.n).toBe(0);
  });
});
