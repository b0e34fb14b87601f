import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/server/app';
import { type Config, loadConfig } from '../../src/server/config';
import { createUser, uniqueEmail } from '../factories';
import { setupTestApp, testConfig } from '../helpers/app';

/**
 * Issue 20, findings 2, 3 and 8 (rate-limit rows pruned): who a client is behind a proxy, sign-in
 * failures counted per account and IP, and the table of buckets kept small. Rate limits ON here.
 */
const ctx = setupTestApp({ rateLimitEnabled: true });

let ipCounter = 0;
/** A distinct client address per use, so each starts with full buckets and no failures. */
const freshIp = () => `10.7.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

const signIn = (ip: string, email: string, password: string, app: FastifyInstance = ctx.app) =>
  app.inject({ method: 'POST', url: '/api/auth/token?grant_type=password', remoteAddress: ip, payload: { email, password } });

const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await ctx.database.db.execute(query)) as unknown as { rows: T[] }).rows;

/** As if `seconds` had passed for the sign-in counters of `email` (their rows' last use moves back). */
const passTime = (email: string, seconds: number) =>
  ctx.database.db.execute(
    sql`update rate_limit_buckets set updated_at = updated_at - make_interval(secs => ${seconds}) where key like ${`%${email}`}`,
  );

describe('finding 2: TRUST_PROXY names proxies, never "every hop"', () => {
  /** An app on this file's database behind `trustProxy`, allowing 3 sign-ins per client IP (one more each 100 s). */
  async function behindProxy(trustProxy: Config['trustProxy'], run: (app: FastifyInstance) => Promise<void>) {
    const app = await buildApp({
      config: testConfig({ rateLimitEnabled: true, trustProxy, rateLimits: { auth: { capacity: 3 } } }),
      database: ctx.database,
    });
    await app.ready();
    try {
      await run(app);
    } finally {
      await app.close();
    }
  }
  /** Sign-in attempts with unknown emails from socket address `from`, X-Forwarded-For `forwardedFor(i)`. */
  async function statuses(app: FastifyInstance, from: string, forwardedFor: (i: number) => string, count = 4) {
    const codes: number[] = [];
    for (let i = 0; i < count; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/token?grant_type=password',
        remoteAddress: from,
        headers: { 'x-forwarded-for': forwardedFor(i) },
        payload: { email: uniqueEmail('nobody'), password: 'wrong password' },
      });
      codes.push(res.statusCode);
    }
    return codes;
  }

  it('finding 2: a forged X-Forwarded-For through one trusted hop is still limited', async () => {
    await behindProxy(1, async (app) => {
      const client = freshIp();
      // The client writes its own X-Forwarded-For, a new one each time; the proxy appends the address it saw.
      expect(await statuses(app, '192.0.2.1', (i) => `6.6.6.${i}, ${client}`)).toEqual([400, 400, 400, 429]);
      // Not the proxy's allowance: another client behind it is not limited.
      expect(await statuses(app, '192.0.2.1', () => `6.6.6.6, ${freshIp()}`, 1)).toEqual([400]);
    });
  });

  it('finding 2: with proxy addresses, X-Forwarded-For counts only from them, and a direct client cannot name its IP', async () => {
    await behindProxy(['192.0.2.0/24', '198.51.100.9'], async (app) => {
      // Two trusted proxies: 192.0.2.1 saw 198.51.100.9, which saw the client.
      const client = freshIp();
      expect(await statuses(app, '192.0.2.1', (i) => `6.6.6.${i}, ${client}, 198.51.100.9`)).toEqual([400, 400, 400, 429]);
      // A client that is not a proxy is itself, whatever it forwards.
      expect(await statuses(app, freshIp(), (i) => `6.6.6.${i}`)).toEqual([400, 400, 400, 429]);
    });
  });

  it('finding 2: TRUST_PROXY=true is one hop, and the app says so in its log', async () => {
    const config = loadConfig({ TRUST_PROXY: 'true', AUTH_SECRET: 'x'.repeat(32), DATA_DIR: '/nonexistent' });
    expect(config.trustProxy).toBe(1);
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = await buildApp({
      config: testConfig({ warnings: config.warnings }),
      database: ctx.database,
      logger: { level: 'info', stream },
    });
    await app.close();
    const warning = lines
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .find((l) => l.msg.includes('TRUST_PROXY=true'));
    expect(warning?.level).toBe(40);
  });
});

describe('finding 3: password sign-in counts failures per account and IP, and slows down rather than locks out', () => {
  it('finding 3: an attacker failing from one IP waits 1, 2, 4, 8 … seconds after 5 failures, at most 15 minutes', async () => {
    const victim = await createUser(ctx.app);
    const attacker = freshIp();
    for (let i = 0; i < 5; i++) expect((await signIn(attacker, victim.email, 'wrong password')).statusCode).toBe(400);
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const refused = await signIn(attacker, victim.email, 'wrong password');
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe('rate_limited');
      waits.push(Number(refused.headers['retry-after']));
      // From this IP even the right password waits: it could be the attacker's next guess.
      expect((await signIn(attacker, victim.email, victim.password)).statusCode).toBe(429);
      await passTime(victim.email, waits.at(-1)!);
      expect((await signIn(attacker, victim.email, 'wrong password')).statusCode).toBe(400);
    }
    expect(waits).toEqual([1, 2, 4, 8]);
    // However many failures, the wait stops growing at 15 minutes.
    await ctx.database.db.execute(
      sql`update rate_limit_buckets set tokens = 40 where key = ${`accountIp:${attacker}|${victim.email}`}`,
    );
    expect((await signIn(attacker, victim.email, 'wrong password')).headers['retry-after']).toBe('900');
  }, 60_000);

  it('finding 3: the owner signs in from another IP with the right password while the attack runs', async () => {
    const victim = await createUser(ctx.app);
    const attacker = freshIp();
    for (let i = 0; i < 5; i++) await signIn(attacker, victim.email, 'wrong password');
    expect((await signIn(attacker, victim.email, 'wrong password')).statusCode).toBe(429);
    // A distributed guess: 100 more failures from 100 IPs. Each IP got one try; now the account is
    // under attack and a client that has failed on it has no free attempt left.
    const spread: string[] = [];
    for (let i = 0; i < 100; i++) {
      spread.push(freshIp());
      const email = i % 2 ? victim.email.toUpperCase() : victim.email;
      expect((await signIn(spread[i]!, email, `guess ${i}`)).statusCode).toBe(400);
    }
    // Before the account's ceiling this IP had 4 more free tries; now it waits (2 s after its failure).
    const next = await signIn(spread.at(-1)!, victim.email, 'guess again');
    expect(next.statusCode).toBe(429);
    expect(Number(next.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    // The owner, who has not failed, is not refused because others did.
    expect((await signIn(freshIp(), victim.email, victim.password)).statusCode).toBe(200);
    // An owner who mistypes while the attack runs is slowed, not locked out.
    const home = freshIp();
    expect((await signIn(home, victim.email, 'typo')).statusCode).toBe(400);
    const slowed = await signIn(home, victim.email, victim.password);
    expect(slowed.statusCode).toBe(429);
    await passTime(victim.email, Number(slowed.headers['retry-after']));
    expect((await signIn(home, victim.email, victim.password)).statusCode).toBe(200);
    // Another account, from the same IPs, is not affected.
    const bystander = await createUser(ctx.app);
    expect((await signIn(attacker, bystander.email, bystander.password)).statusCode).toBe(200);
  }, 120_000);

  it('finding 3: parallel attempts from one IP cannot all pass on the same count', async () => {
    const victim = await createUser(ctx.app);
    const ip = freshIp();
    const answers = await Promise.all(Array.from({ length: 12 }, () => signIn(ip, victim.email, 'wrong password')));
    const codes = answers.map((res) => res.statusCode).sort();
    expect(codes).toEqual([...Array(5).fill(400), ...Array(7).fill(429)]);
  });

  it('finding 3: RATE_LIMIT_ENABLED=false turns the failure counts off too', async () => {
    const appOff = await buildApp({ config: testConfig({ rateLimitEnabled: false }), database: ctx.database });
    await appOff.ready();
    try {
      const victim = await createUser(appOff);
      const ip = freshIp();
      for (let i = 0; i < 8; i++) expect((await signIn(ip, victim.email, 'wrong password', appOff)).statusCode).toBe(400);
      expect((await signIn(ip, victim.email, victim.password, appOff)).statusCode).toBe(200);
    } finally {
      await appOff.close();
    }
  });
});

describe('finding 8: rate-limit rows are pruned', () => {
  const keys = async () => (await rows<{ key: string }>(sql`select key from rate_limit_buckets`)).map((r) => r.key);

  it('finding 8: the rows of sign-ins with 200 random emails are deleted once full again', async () => {
    const before = (await keys()).length;
    let ip = freshIp();
    for (let i = 0; i < 200; i++) {
      if (i % 25 === 0) ip = freshIp();
      expect((await signIn(ip, uniqueEmail('random'), 'wrong password')).statusCode).toBe(400);
    }
    const random = (all: string[]) => all.filter((k) => k.includes('random.'));
    // Two counters per email (its IP's failures, the account's), plus the IPs' buckets.
    expect(random(await keys())).toHaveLength(400);
    expect((await keys()).length).toBeGreaterThanOrEqual(before + 408);
    // Not yet full again: nothing goes.
    await ctx.app.deps.rateLimiter.prune();
    expect(random(await keys())).toHaveLength(400);

    // Two hours later every bucket is full again and every counter forgotten; a new attempt is not.
    await ctx.database.db.execute(sql`update rate_limit_buckets set updated_at = updated_at - interval '2 hours'`);
    const last = freshIp();
    const email = uniqueEmail('random');
    expect((await signIn(last, email, 'wrong password')).statusCode).toBe(400);
    expect(await ctx.app.deps.rateLimiter.prune()).toBeGreaterThanOrEqual(before + 408);
    expect((await keys()).sort()).toEqual([`account:${email}`, `accountIp:${last}|${email}`, `auth:${last}`]);
  }, 120_000);

  it('finding 8: the app prunes every minute while it runs, and stops when closed', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const app = await buildApp({ config: testConfig({ rateLimitEnabled: true }), database: ctx.database });
      const prune = vi.spyOn(app.deps.rateLimiter, 'prune');
      await vi.advanceTimersByTimeAsync(60_000);
      expect(prune).toHaveBeenCalledTimes(1);
      await app.close();
      await vi.advanceTimersByTimeAsync(120_000);
      expect(prune).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
