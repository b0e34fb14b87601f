import { Writable } from 'node:stream';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import { ACCOUNT_MSG } from '../../src/domain/account-messages';
import { buildApp } from '../../src/server/app';
import { mailOutbox, users, userTokens } from '../../src/server/db/schema';
import type { DomainEvent } from '../../src/server/lib/events';
import { hashToken } from '../../src/server/lib/tokens';
import { createUser, type TestUser, uniqueEmail } from '../factories';
import { setupTestApp, testConfig } from '../helpers/app';
import { call, invite, teamScenario } from './teams-helpers';

/**
 * Issue 21, verification and ownership, password reset: the emailed links, read from the outbox (mail_outbox) as the
 * mail worker would send them. EMAIL_VERIFICATION=required in this file unless a test builds an app of its own.
 */
const ctx = setupTestApp({ emailVerification: 'required' });

const post = (url: string, payload?: unknown, headers: Record<string, string> = {}, remoteAddress?: string) =>
  ctx.app.inject({ method: 'POST', url, payload: payload as never, headers, remoteAddress });

/** The mails queued for `to` (of one kind), oldest first. */
const mailsTo = (to: string, kind?: string) =>
  ctx.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toEmail, to), kind ? eq(mailOutbox.kind, kind as never) : undefined))
    .orderBy(asc(mailOutbox.id));

/** The token of the last link to `path` mailed to `to`. */
async function linkToken(to: string, path: '/verify-email' | '/reset-password'): Promise<string> {
  const mails = await mailsTo(to);
  const pattern = new RegExp(`http://localhost:3000${path}\\?token=([A-Za-z0-9_-]+)`);
  const tokens = mails.map((m) => m.textBody.match(pattern)?.[1]).filter(Boolean);
  if (!tokens.length) throw new Error(`no ${path} link mailed to ${to}`);
  return tokens.at(-1)!;
}

const me = async (user: TestUser) =>
  (await ctx.app.inject({ method: 'GET', url: '/api/auth/user', headers: user.auth })).json() as { emailVerified: boolean };

const verify = (token: string) => post('/api/auth/verify-email', { token });
const forgot = (email: string, ip?: string) => post('/api/auth/forgot-password', { email }, {}, ip);
const reset = (token: string, password: string) => post('/api/auth/reset-password', { token, password });
const passwordGrant = (email: string, password: string) => post('/api/auth/token?grant_type=password', { email, password });

let ipCounter = 0;
const freshIp = () => `10.21.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

/** An app on this file's database with its own settings (rate limits on, verification off…). */
async function withApp(overrides: Parameters<typeof testConfig>[0], run: (app: FastifyInstance) => Promise<void>) {
  const config = testConfig({ emailVerification: 'required', authSecret: ctx.config.authSecret, ...overrides });
  const app = await buildApp({ config, database: ctx.database });
  try {
    await run(app);
  } finally {
    await app.close();
  }
}

describe('email verification', () => {
  it('sign-up queues a 24 h verification link, stored hashed; the unverified user signs in and says so', async () => {
    const user = await createUser(ctx.app, { fullName: 'Vera Verify' });
    const [mail, ...more] = await mailsTo(user.email, 'verify_email');
    expect(more).toEqual([]);
    expect(mail).toMatchObject({ subject: 'Verify your email address', toEmail: user.email });
    expect(mail!.htmlBody).toContain('Verify email address');
    const token = await linkToken(user.email, '/verify-email');

    const [row] = await ctx.database.db
      .select({
        tokenHash: userTokens.tokenHash,
        ttl: sql<number>`extract(epoch from ${userTokens.expiresAt} - ${userTokens.createdAt})`,
      })
      .from(userTokens)
      .where(eq(userTokens.userId, user.id));
    expect(row!.tokenHash).toBe(hashToken(token));
    expect(row!.tokenHash).not.toContain(token);
    expect(Math.round(Number(row!.ttl))).toBe(24 * 3600);

    expect(user.session.user.emailVerified).toBe(false);
    expect(await me(user)).toMatchObject({ emailVerified: false });
    const providers = await ctx.app.inject('/api/auth/providers');
    expect(providers.json()).toEqual({
      google: false,
      emailVerification: 'required',
      ldap: false,
      localPasswords: true,
      sso: false,
    });
  });

  it('the link verifies once, and not twice', async () => {
    const user = await createUser(ctx.app);
    const token = await linkToken(user.email, '/verify-email');
    const first = await verify(token);
    expect(first.statusCode).toBe(204);
    expect(await me(user)).toMatchObject({ emailVerified: true });

    const again = await verify(token);
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toEqual({ code: 'invalid_grant', reason: 'link_invalid', message: MSG.linkInvalid });
    const unknown = await verify('x'.repeat(43));
    expect(unknown.json().error).toEqual(again.json().error);
  });

  it('an expired link is refused and verifies nothing', async () => {
    const user = await createUser(ctx.app);
    const token = await linkToken(user.email, '/verify-email');
    await ctx.database.db
      .update(userTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(userTokens.tokenHash, hashToken(token)));
    const res = await verify(token);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.reason).toBe('link_invalid');
    expect(await me(user)).toMatchObject({ emailVerified: false });
  });

  it('a link sent to an address the account has since left verifies nothing', async () => {
    const user = await createUser(ctx.app);
    const token = await linkToken(user.email, '/verify-email');
    await ctx.database.db
      .update(users)
      .set({ email: uniqueEmail('moved') })
      .where(eq(users.id, user.id));
    expect((await verify(token)).json().error.reason).toBe('link_invalid');
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.emailVerified).toBe(false);
  });

  it("'Resend email' sends a new link that replaces the old one; once verified there is nothing to resend", async () => {
    const user = await createUser(ctx.app);
    const old = await linkToken(user.email, '/verify-email');
    expect((await post('/api/auth/resend-verification')).statusCode).toBe(401);
    const res = await post('/api/auth/resend-verification', undefined, user.auth);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: ACCOUNT_MSG.verificationSent(user.email) });
    expect(await mailsTo(user.email, 'verify_email')).toHaveLength(2);
    const fresh = await linkToken(user.email, '/verify-email');
    expect(fresh).not.toBe(old);
    expect((await verify(old)).statusCode).toBe(400);
    expect((await verify(fresh)).statusCode).toBe(204);

    const done = await post('/api/auth/resend-verification', undefined, user.auth);
    expect(done.statusCode).toBe(409);
    expect(done.json().error).toMatchObject({ reason: 'email_already_verified', message: MSG.emailAlreadyVerified });
    expect(await mailsTo(user.email, 'verify_email')).toHaveLength(2);
  });

  it('resend is rate-limited per account and per IP', async () => {
    await withApp(
      { rateLimitEnabled: true, rateLimits: { mailLinkTarget: { capacity: 2 }, mailLinkIp: { capacity: 4 } } },
      async (app) => {
        const resend = (user: TestUser, ip: string) =>
          app.inject({ method: 'POST', url: '/api/auth/resend-verification', headers: user.auth, remoteAddress: ip });
        const one = await createUser(ctx.app);
        const statuses = [];
        for (const _ of [1, 2, 3]) statuses.push((await resend(one, freshIp())).statusCode);
        expect(statuses).toEqual([202, 202, 429]);

        const ip = freshIp();
        const others = await Promise.all([1, 2, 3, 4, 5].map(() => createUser(ctx.app)));
        const fromOneIp = [];
        for (const user of others) fromOneIp.push((await resend(user, ip)).statusCode);
        expect(fromOneIp).toEqual([202, 202, 202, 202, 429]);
        const limited = await resend(others[4]!, ip);
        expect(limited.json().error.code).toBe('rate_limited');
        expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      },
    );
  });

  it('with EMAIL_VERIFICATION=off, sign-up sends no verification mail and the providers say off', async () => {
    await withApp({ emailVerification: 'off' }, async (app) => {
      const user = await createUser(app);
      expect(await mailsTo(user.email)).toEqual([]);
      expect(user.session.user.emailVerified).toBe(false);
      expect((await app.inject('/api/auth/providers')).json()).toEqual({
        google: false,
        emailVerification: 'off',
        ldap: false,
        localPasswords: true,
        sso: false,
      });
    });
  });

  it('the request log never holds the token of a link (the page /verify-email?token=… is logged without it)', async () => {
    let log = '';
    const stream = new Writable({
      write(chunk, _enc, done) {
        log += chunk.toString();
        done();
      },
    });
    const app = await buildApp({ config: testConfig(), database: ctx.database, logger: { level: 'info', stream } });
    try {
      await app.inject('/verify-email?token=SeCrEtToKeN123&x=1');
      await app.inject('/reset-password?a=1&token=SeCrEtToKeN456');
      await app.inject('/api/calendar/feeds/cal_SeCrEtToKeN789/crewboard.ics');
    } finally {
      await app.close();
    }
    expect(log).toContain('/verify-email?token=[redacted]&x=1');
    expect(log).toContain('/reset-password?a=1&token=[redacted]');
    expect(log).toContain('/api/calendar/feeds/[redacted]/crewboard.ics');
    expect(log).not.toContain('SeCrEtToKeN');
  });
});

describe('password reset', () => {
  it('answers the same for a known and an unknown address; only the known one gets a 1 h link, stored hashed', async () => {
    const user = await createUser(ctx.app);
    const unknown = uniqueEmail('nobody');
    const known = await forgot(user.email.toUpperCase());
    const missing = await forgot(unknown);
    expect(known.statusCode).toBe(202);
    expect(missing.statusCode).toBe(202);
    expect(known.body).toBe(missing.body);
    expect(known.json()).toEqual({ message: ACCOUNT_MSG.forgotPasswordSent });

    expect(await mailsTo(unknown)).toEqual([]);
    const [mail] = await mailsTo(user.email, 'reset_password');
    expect(mail!.subject).toBe('Reset your Crewboard password');
    const token = await linkToken(user.email, '/reset-password');
    const [row] = await ctx.database.db
      .select({ ttl: sql<number>`extract(epoch from ${userTokens.expiresAt} - ${userTokens.createdAt})` })
      .from(userTokens)
      .where(eq(userTokens.tokenHash, hashToken(token)));
    expect(Math.round(Number(row!.ttl))).toBe(3600);
  });

  it('a deactivated account gets no link (and the same answer)', async () => {
    const user = await createUser(ctx.app);
    await ctx.database.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    const res = await forgot(user.email);
    expect(res.statusCode).toBe(202);
    expect(await mailsTo(user.email, 'reset_password')).toEqual([]);
  });

  it('a reset signs out every session, refuses the old password, accepts the new one and mails a notice', async () => {
    const user = await createUser(ctx.app, { password: 'old password 1' });
    const second = await passwordGrant(user.email, 'old password 1');
    const seen: DomainEvent[] = [];
    const stop = ctx.app.deps.events.subscribe((e) => seen.push(e));
    await forgot(user.email);
    const res = await reset(await linkToken(user.email, '/reset-password'), 'brand new password 2');
    stop();
    expect(res.statusCode).toBe(204);
    expect(seen).toContainEqual({ type: 'session.revoked', actorId: user.id, userId: user.id, sessionId: null });

    // Both sessions are over: the access token and the refresh tokens are refused.
    expect((await ctx.app.inject({ method: 'GET', url: '/api/auth/user', headers: user.auth })).statusCode).toBe(401);
    for (const refresh of [user.session.refresh_token, second.json().refresh_token]) {
      const r = await post('/api/auth/token?grant_type=refresh_token', { refresh_token: refresh });
      expect(r.statusCode).toBe(400);
      expect(r.json().error.code).toBe('invalid_grant');
    }
    const old = await passwordGrant(user.email, 'old password 1');
    expect(old.statusCode).toBe(400);
    expect(old.json().error.code).toBe('invalid_credentials');
    const fresh = await passwordGrant(user.email, 'brand new password 2');
    expect(fresh.statusCode).toBe(200);
    // The link proved the mailbox.
    expect(fresh.json().user.emailVerified).toBe(true);

    const [notice, ...more] = await mailsTo(user.email, 'password_changed');
    expect(more).toEqual([]);
    expect(notice!.subject).toBe('Your Crewboard password was changed');
    expect(notice!.textBody).toContain('http://localhost:3000/forgot-password');
  });

  it('a reset link works once and expires; a reset spends every other reset link of the account', async () => {
    const user = await createUser(ctx.app);
    await forgot(user.email);
    const first = await linkToken(user.email, '/reset-password');
    await forgot(user.email);
    const second = await linkToken(user.email, '/reset-password');
    expect((await reset(second, 'another good password')).statusCode).toBe(204);
    for (const token of [second, first]) {
      const again = await reset(token, 'yet another password');
      expect(again.statusCode).toBe(400);
      expect(again.json().error).toMatchObject({ code: 'invalid_grant', reason: 'link_invalid', message: MSG.linkInvalid });
    }

    await forgot(user.email);
    const late = await linkToken(user.email, '/reset-password');
    await ctx.database.db
      .update(userTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(userTokens.tokenHash, hashToken(late)));
    expect((await reset(late, 'too late a password')).json().error.reason).toBe('link_invalid');
    expect((await passwordGrant(user.email, 'another good password')).statusCode).toBe(200);
  });

  it('the new password follows the sign-up rules; a refused one does not spend the link', async () => {
    const user = await createUser(ctx.app);
    await forgot(user.email);
    const token = await linkToken(user.email, '/reset-password');
    const short = await reset(token, 'short12');
    expect(short.statusCode).toBe(400);
    expect(short.json().error.fields).toEqual({ password: MSG.passwordMin8 });
    const long = await reset(token, 'x'.repeat(129));
    expect(long.json().error.fields).toEqual({ password: MSG.passwordTooLong });
    const common = await reset(token, 'password1');
    expect(common.statusCode).toBe(400);
    expect(common.json().error).toMatchObject({ reason: 'password_too_common', fields: { password: MSG.passwordTooCommon } });
    expect((await reset(token, 'a fine new password')).statusCode).toBe(204);
  });

  it('forgot password is rate-limited per IP and per address, known or not', async () => {
    await withApp(
      { rateLimitEnabled: true, rateLimits: { mailLinkTarget: { capacity: 2 }, mailLinkIp: { capacity: 3 } } },
      async (app) => {
        const ask = (email: string, ip: string) =>
          app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email }, remoteAddress: ip });
        const user = await createUser(ctx.app);
        for (const email of [user.email, uniqueEmail('nobody')]) {
          const statuses = [];
          for (const _ of [1, 2, 3]) statuses.push((await ask(email, freshIp())).statusCode);
          expect(statuses, email).toEqual([202, 202, 429]);
        }
        expect(await mailsTo(user.email, 'reset_password')).toHaveLength(2);

        const ip = freshIp();
        const fromOneIp = [];
        for (const _ of [1, 2, 3, 4]) fromOneIp.push((await ask(uniqueEmail('spray'), ip)).statusCode);
        expect(fromOneIp).toEqual([202, 202, 202, 429]);
      },
    );
  });
});

describe('invitations need a proven address (EMAIL_VERIFICATION=required)', () => {
  /** The proof in the invitation's mail link (/dashboard?invitation=…&proof=…). */
  async function proofMailedFor(invitationId: string, to: string): Promise<string> {
    const [mail] = await mailsTo(to, 'invitation');
    const link = mail!.textBody.match(/https?:\/\/\S+\?\S*invitation=[^\s]+/)?.[0];
    const url = new URL(link!);
    expect(url.searchParams.get('invitation')).toBe(invitationId);
    return url.searchParams.get('proof')!;
  }

  it('an unverified invitee is refused with email_unverified, declining too (issue 35, item 2)', async () => {
    const s = await teamScenario(ctx, 'Proof Crew');
    const invitee = await createUser(ctx.app);
    const inv = await invite(ctx.app, s.owner, s.team.id, invitee.email, 'admin');
    const refused = await call(ctx.app, invitee, 'POST', `/api/invitations/${inv.id}/respond`, { accept: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toEqual({ code: 'permission_denied', reason: 'email_unverified', message: MSG.emailUnverified });
    const forged = await call(ctx.app, invitee, 'POST', `/api/invitations/${inv.id}/respond`, {
      accept: true,
      proof: 'x'.repeat(43),
    });
    expect(forged.json().error.reason).toBe('email_unverified');
    const team = (await call(ctx.app, s.owner, 'GET', `/api/teams/${s.team.id}`)).json() as { members: { userId: string }[] };
    expect(team.members.map((m) => m.userId)).not.toContain(invitee.id);

    const declined = await call(ctx.app, invitee, 'POST', `/api/invitations/${inv.id}/respond`, { accept: false });
    expect(declined.statusCode).toBe(403);
    expect(declined.json().error.reason).toBe('email_unverified');
  });

  it("the invitation's own emailed link is proof (for that invitation only)", async () => {
    const s = await teamScenario(ctx);
    const other = await teamScenario(ctx);
    const invitee = await createUser(ctx.app);
    const inv = await invite(ctx.app, s.owner, s.team.id, invitee.email);
    const second = await invite(ctx.app, other.owner, other.team.id, invitee.email);
    const proof = await proofMailedFor(inv.id, invitee.email);
    const wrong = await call(ctx.app, invitee, 'POST', `/api/invitations/${second.id}/respond`, { accept: true, proof });
    expect(wrong.json().error.reason).toBe('email_unverified');
    const ok = await call(ctx.app, invitee, 'POST', `/api/invitations/${inv.id}/respond`, { accept: true, proof });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'accepted' });
    expect((await me(invitee)).emailVerified).toBe(false);
  });

  it('after verifying the address, accepting works', async () => {
    const s = await teamScenario(ctx);
    const invitee = await createUser(ctx.app);
    const inv = await invite(ctx.app, s.owner, s.team.id, invitee.email);
    expect((await verify(await linkToken(invitee.email, '/verify-email'))).statusCode).toBe(204);
    const ok = await call(ctx.app, invitee, 'POST', `/api/invitations/${inv.id}/respond`, { accept: true });
    expect(ok.statusCode).toBe(200);
  });

  it('with EMAIL_VERIFICATION=off, accepting asks for no proof (addresses are unproven by choice)', async () => {
    await withApp({ emailVerification: 'off' }, async (app) => {
      const s = await teamScenario({ ...ctx, app });
      const invitee = await createUser(app);
      const inv = await invite(app, s.owner, s.team.id, invitee.email);
      expect((await call(app, invitee, 'POST', `/api/invitations/${inv.id}/respond`, { accept: true })).statusCode).toBe(200);
    });
  });
});
