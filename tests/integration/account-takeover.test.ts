import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import type { ApiTokenCreatedDto, ApiTokenListDto } from '../../src/domain/schemas/api-token';
import type { CalendarFeedCreatedDto, CalendarFeedStatusDto } from '../../src/domain/schemas/calendar';
import type { MyInvitationsDto, TeamDto } from '../../src/domain/schemas/team';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { apiTokens, auditLog, mailOutbox, notifications } from '../../src/server/db/schema';
import { createUser, signIn, type TestUser, uniqueEmail } from '../factories';
import { setupTestApp, testConfig } from '../helpers/app';
import { call, invite, teamScenario } from './teams-helpers';

/**
 * Issue 35, items 1, 2 and 6: what an account keeps after its owner takes it back, what an unproven address may read of
 * an invitation, and guessing from many IPv6 addresses. EMAIL_VERIFICATION=required in this file's app; a test that
 * needs another setting builds an app of its own on the same database.
 */
const ctx = setupTestApp({ emailVerification: 'required' });

/** An app on this file's database with its own settings. */
async function withApp(overrides: Parameters<typeof testConfig>[0], run: (app: FastifyInstance) => Promise<void>) {
  const app = await buildApp({ config: testConfig({ authSecret: ctx.config.authSecret, ...overrides }), database: ctx.database });
  await app.ready();
  try {
    await run(app);
  } finally {
    await app.close();
  }
}

/** The mails queued for `to` (of one kind), oldest first. */
const mailsTo = (to: string, kind?: string) =>
  ctx.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toEmail, to), kind ? eq(mailOutbox.kind, kind as never) : undefined))
    .orderBy(asc(mailOutbox.id));

/** The token of the last link to `path` mailed to `to`. */
async function linkToken(to: string, path: '/verify-email' | '/reset-password'): Promise<string> {
  const pattern = new RegExp(`http://localhost:3000${path}\\?token=([A-Za-z0-9_-]+)`);
  const tokens = (await mailsTo(to)).map((m) => m.textBody.match(pattern)?.[1]).filter(Boolean);
  if (!tokens.length) throw new Error(`no ${path} link mailed to ${to}`);
  return tokens.at(-1)!;
}

/** The `invitation` and `proof` of the invitation's mailed link (/dashboard?invitation=…&proof=…). */
async function mailedLink(to: string): Promise<{ invitation: string; proof: string }> {
  const [mail] = await mailsTo(to, 'invitation');
  const url = new URL(mail!.textBody.match(/https?:\/\/\S+\?\S*invitation=[^\s]+/)![0]);
  return { invitation: url.searchParams.get('invitation')!, proof: url.searchParams.get('proof')! };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const createToken = (app: FastifyInstance, user: TestUser, scope: 'read' | 'write' = 'write') =>
  call(app, user, 'POST', '/api/me/api-tokens', { name: `token ${uniqueEmail('t')}`, scope, expiresInDays: null });

/** A write-scope token and a calendar feed of `user` (both must be made). */
async function credentialsOf(app: FastifyInstance, user: TestUser) {
  const token = await createToken(app, user);
  expect(token.statusCode, token.body).toBe(201);
  const feed = await call(app, user, 'POST', '/api/me/calendar-feed');
  expect(feed.statusCode, feed.body).toBe(201);
  return {
    token: (token.json() as ApiTokenCreatedDto).token,
    feedUrl: new URL((feed.json() as CalendarFeedCreatedDto).url).pathname,
  };
}

/** What the token and the feed answer now: [GET /api/teams with the token, GET of the feed]. */
async function stillWork(app: FastifyInstance, credentials: { token: string; feedUrl: string }) {
  const token = await app.inject({ method: 'GET', url: '/api/teams', headers: bearer(credentials.token) });
  const feed = await app.inject({ method: 'GET', url: credentials.feedUrl });
  return [token.statusCode, feed.statusCode];
}

const auditRows = (targetId: string) =>
  ctx.database.db.select().from(auditLog).where(eq(auditLog.targetId, targetId)).orderBy(asc(auditLog.id));

describe('issue 35, item 1: API tokens and calendar feeds do not survive taking an account back', () => {
  it('item 1: the squatter scenario — a token and a feed made before the owner resets the password stop working', async () => {
    // EMAIL_VERIFICATION=off: an address is not proven, so whoever registers it first may make tokens and feeds.
    await withApp({ emailVerification: 'off' }, async (app) => {
      const s = await teamScenario({ ...ctx, app }, 'Squatted Crew');
      const victimEmail = uniqueEmail('victim');
      const squatter = await createUser(app, { email: victimEmail, password: 'squatter password 1' });
      const held = await credentialsOf(app, squatter);

      // The owner invites the address as an admin; the real owner of the mailbox resets the password and accepts.
      const inv = await invite(app, s.owner, s.team.id, victimEmail, 'admin');
      expect(
        (await app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: victimEmail } })).statusCode,
      ).toBe(202);
      const token = await linkToken(victimEmail, '/reset-password');
      const reset = await app.inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { token, password: 'the real owner password 2' },
      });
      expect(reset.statusCode, reset.body).toBe(204);
      const owner = await signIn(app, victimEmail, 'the real owner password 2');
      expect((await call(app, owner, 'POST', `/api/invitations/${inv.id}/respond`, { accept: true })).statusCode).toBe(200);

      // The squatter's token no longer reads the team as its admin, and the feed's link is gone.
      const team = await app.inject({ method: 'GET', url: `/api/teams/${s.team.id}`, headers: bearer(held.token) });
      expect(team.statusCode).toBe(401);
      expect(await stillWork(app, held)).toEqual([401, 404]);
      // The owner's own view: no token left, no feed.
      expect((await call(app, owner, 'GET', '/api/me/api-tokens')).json<ApiTokenListDto>().tokens).toEqual([]);
      expect((await call(app, owner, 'GET', '/api/me/calendar-feed')).json<CalendarFeedStatusDto>().active).toBe(false);
      const mine = (await call(app, owner, 'GET', `/api/teams/${s.team.id}`)).json() as TeamDto;
      expect(mine.members.find((m) => m.userId === owner.id)?.role).toBe('admin');

      // The audit log says what went: the reset with its counts, each token with its reason.
      const resetRow = (await auditRows(owner.id)).find((r) => r.action === 'auth.password_reset');
      expect(resetRow?.details).toEqual({ apiTokensRevoked: 1, calendarFeedRevoked: true });
      const [listed] = await ctx.database.db.select().from(apiTokens).where(eq(apiTokens.userId, owner.id));
      const tokenRows = await auditRows(listed!.id);
      expect(tokenRows.map((r) => [r.action, r.details])).toEqual([
        ['api_token.created', expect.anything()],
        ['api_token.revoked', { reason: 'password_reset' }],
      ]);
    });
  });

  it('item 1: under EMAIL_VERIFICATION=required an unverified account makes no API token and no calendar feed (403)', async () => {
    const unverified = await createUser(ctx.app);
    for (const res of [
      await createToken(ctx.app, unverified),
      await call(ctx.app, unverified, 'POST', '/api/me/calendar-feed'),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toEqual({
        code: 'permission_denied',
        reason: 'credentials_email_unverified',
        message: MSG.credentialsEmailUnverified,
      });
    }
    // Settings is told why (and offers no button).
    expect((await call(ctx.app, unverified, 'GET', '/api/me/api-tokens')).json()).toEqual({ tokens: [], verifyEmailFirst: true });
    expect((await call(ctx.app, unverified, 'GET', '/api/me/calendar-feed')).json()).toMatchObject({ verifyEmailFirst: true });

    // Once verified, both are made.
    const verified = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/verify-email',
      payload: { token: await linkToken(unverified.email, '/verify-email') },
    });
    expect(verified.statusCode).toBe(204);
    expect((await call(ctx.app, unverified, 'GET', '/api/me/api-tokens')).json()).toEqual({
      tokens: [],
      verifyEmailFirst: false,
    });
    expect((await call(ctx.app, unverified, 'GET', '/api/me/calendar-feed')).json()).not.toHaveProperty('verifyEmailFirst');
    await credentialsOf(ctx.app, unverified);
  });
});

describe("issue 35, item 1: the boxes 'Also revoke API tokens and calendar links'", () => {
  const changePassword = (app: FastifyInstance, user: TestUser, body: Record<string, unknown>) =>
    call(app, user, 'POST', '/api/me/password', {
      currentPassword: user.password,
      password: 'a brand new passphrase 9',
      ...body,
    });

  it('item 1: a password change revokes tokens and the feed by default (the box ticked), and keeps them when unticked', async () => {
    await withApp({ emailVerification: 'off' }, async (app) => {
      const kept = await createUser(app);
      const keptCredentials = await credentialsOf(app, kept);
      expect((await changePassword(app, kept, { revokeTokens: false })).statusCode).toBe(204);
      expect(await stillWork(app, keptCredentials)).toEqual([200, 200]);

      const revoked = await createUser(app);
      const revokedCredentials = await credentialsOf(app, revoked);
      // No field: the default is the box's, ticked.
      expect((await changePassword(app, revoked, {})).statusCode).toBe(204);
      expect(await stillWork(app, revokedCredentials)).toEqual([401, 404]);
      const changed = (await auditRows(revoked.id)).find((r) => r.action === 'auth.password_changed');
      expect(changed?.details).toEqual({ otherSessionsSignedOut: 0, apiTokensRevoked: 1, calendarFeedRevoked: true });

      const explicit = await createUser(app);
      const explicitCredentials = await credentialsOf(app, explicit);
      expect((await changePassword(app, explicit, { revokeTokens: true })).statusCode).toBe(204);
      expect(await stillWork(app, explicitCredentials)).toEqual([401, 404]);
      // The session that changed the password stays signed in.
      expect((await call(app, explicit, 'GET', '/api/auth/user')).statusCode).toBe(200);
    });
  });

  it("item 1: 'Sign out all other sessions' keeps tokens and the feed unless asked (the box unticked)", async () => {
    await withApp({ emailVerification: 'off' }, async (app) => {
      const user = await createUser(app);
      const other = await signIn(app, user.email, user.password);
      const credentials = await credentialsOf(app, user);

      // No body, or the box unticked: sessions only.
      const bare = await app.inject({ method: 'POST', url: '/api/me/sessions/revoke-others', headers: user.auth });
      expect(bare.json()).toEqual({ revoked: 1 });
      expect((await call(app, other, 'GET', '/api/auth/user')).statusCode).toBe(401);
      expect((await call(app, user, 'POST', '/api/me/sessions/revoke-others', { revokeTokens: false })).json()).toEqual({
        revoked: 0,
      });
      expect(await stillWork(app, credentials)).toEqual([200, 200]);

      // Ticked: the tokens and the feed go too, each token with its audit row.
      expect((await call(app, user, 'POST', '/api/me/sessions/revoke-others', { revokeTokens: true })).json()).toEqual({
        revoked: 0,
      });
      expect(await stillWork(app, credentials)).toEqual([401, 404]);
      const revokedRows = (await ctx.database.db.select().from(auditLog).where(eq(auditLog.actorId, user.id))).filter(
        (r) => r.action === 'api_token.revoked',
      );
      expect(revokedRows.map((r) => r.details)).toEqual([{ reason: 'other_sessions_signed_out' }]);
      // The current session stays.
      expect((await call(app, user, 'GET', '/api/auth/user')).statusCode).toBe(200);

      const bad = await call(app, user, 'POST', '/api/me/sessions/revoke-others', { revokeTokens: 'yes' });
      expect(bad.statusCode).toBe(400);
    });
  });
});

describe('issue 35, item 2: an unproven address neither reads nor declines an invitation (EMAIL_VERIFICATION=required)', () => {
  const received = async (user: TestUser, query = '') =>
    ((await call(ctx.app, user, 'GET', `/api/invitations${query}`)).json() as MyInvitationsDto).received;

  it("item 2: the squatter sees no team, inviter or role, is told nothing, and cannot decline the real invitee's invitation", async () => {
    const s = await teamScenario(ctx, 'Secret Crew');
    const victimEmail = uniqueEmail('victim');
    const squatter = await createUser(ctx.app, { email: victimEmail });
    const inv = await invite(ctx.app, s.owner, s.team.id, victimEmail, 'admin');

    expect(await received(squatter)).toEqual([]);
    expect(await received(squatter, `?invitation=${inv.id}&proof=${'x'.repeat(43)}`)).toEqual([]);
    // No notification names the team either (written after the invitation's commit: give it a moment).
    await new Promise((resolve) => setTimeout(resolve, 200));
    const told = await ctx.database.db.select().from(notifications).where(eq(notifications.userId, squatter.id));
    expect(told).toEqual([]);

    const declined = await call(ctx.app, squatter, 'POST', `/api/invitations/${inv.id}/respond`, { accept: false });
    expect(declined.statusCode).toBe(403);
    expect(declined.json().error.reason).toBe('email_unverified');
    const pending = (await call(ctx.app, s.owner, 'GET', `/api/teams/${s.team.id}/invitations`)).json() as { id: string }[];
    expect(pending.map((i) => i.id)).toContain(inv.id);
  });

  it("item 2: the invitation's own emailed link shows it, and it may then be declined; a verified address sees all", async () => {
    const s = await teamScenario(ctx);
    const other = await teamScenario(ctx);
    const invitee = await createUser(ctx.app);
    const inv = await invite(ctx.app, s.owner, s.team.id, invitee.email);
    const second = await invite(ctx.app, other.owner, other.team.id, invitee.email);
    const link = await mailedLink(invitee.email);
    expect(link.invitation).toBe(inv.id);

    const shown = await received(invitee, `?invitation=${link.invitation}&proof=${link.proof}`);
    expect(shown.map((i) => i.id)).toEqual([inv.id]);
    // The proof of one invitation shows no other.
    expect(await received(invitee, `?invitation=${second.id}&proof=${link.proof}`)).toEqual([]);

    const declined = await call(ctx.app, invitee, 'POST', `/api/invitations/${inv.id}/respond`, {
      accept: false,
      proof: link.proof,
    });
    expect(declined.statusCode).toBe(200);
    expect(declined.json()).toMatchObject({ status: 'declined' });

    // Verifying the address shows the rest, and tells of it.
    const verified = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/verify-email',
      payload: { token: await linkToken(invitee.email, '/verify-email') },
    });
    expect(verified.statusCode).toBe(204);
    expect((await received(invitee)).map((i) => i.id)).toEqual([second.id]);
    const told = await ctx.database.db.select().from(notifications).where(eq(notifications.userId, invitee.id));
    expect(told.map((n) => n.data)).toEqual([{ teamId: other.team.id, invitationId: second.id }]);
  });

  it('item 2: with EMAIL_VERIFICATION=off, invitations are listed and declined as before', async () => {
    await withApp({ emailVerification: 'off' }, async (app) => {
      const s = await teamScenario({ ...ctx, app });
      const invitee = await createUser(app);
      const inv = await invite(app, s.owner, s.team.id, invitee.email);
      const list = (await call(app, invitee, 'GET', '/api/invitations')).json() as MyInvitationsDto;
      expect(list.received.map((i) => i.id)).toEqual([inv.id]);
      expect((await call(app, invitee, 'POST', `/api/invitations/${inv.id}/respond`, { accept: false })).statusCode).toBe(200);
    });
  });
});

describe('issue 35, item 6: guessing from many IPv6 addresses', () => {
  let prefix = 0;
  /** A fresh /64 per use; `host` picks an address inside it. */
  const fresh64 = () => {
    const n = ++prefix;
    return (host: number) => `2001:db8:35:${n.toString(16)}:${host.toString(16)}::${(host * 7).toString(16)}`;
  };

  it('item 6: sign-in buckets and failure counters count a whole /64 as one client', async () => {
    await withApp({ rateLimitEnabled: true, rateLimits: { auth: { capacity: 3 } } }, async (app) => {
      const net = fresh64();
      const statuses: number[] = [];
      for (let host = 1; host <= 4; host++) {
        const res = await app.inject({
          method: 'POST',
          url: '/api/auth/token?grant_type=password',
          remoteAddress: net(host),
          payload: { email: uniqueEmail('nobody'), password: 'wrong password' },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([400, 400, 400, 429]);
      // Another /64 has its own bucket.
      const elsewhere = await app.inject({
        method: 'POST',
        url: '/api/auth/token?grant_type=password',
        remoteAddress: fresh64()(1),
        payload: { email: uniqueEmail('nobody'), password: 'wrong password' },
      });
      expect(elsewhere.statusCode).toBe(400);
    });

    // The per-account-and-IP failures too: 5 failures from 5 addresses of one /64, then it waits.
    await withApp({ rateLimitEnabled: true }, async (app) => {
      const victim = await createUser(app);
      const net = fresh64();
      const attempt = (host: number) =>
        app.inject({
          method: 'POST',
          url: '/api/auth/token?grant_type=password',
          remoteAddress: net(host),
          payload: { email: victim.email, password: 'wrong password' },
        });
      for (let host = 1; host <= 5; host++) expect((await attempt(host)).statusCode).toBe(400);
      const refused = await attempt(6);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    });
  });

  it('item 6: failed API-token authentication is limited per IP (a /64 for IPv6), 429 with Retry-After', async () => {
    await withApp({ rateLimitEnabled: true, rateLimits: { apiToken: { capacity: 3 } } }, async (app) => {
      const user = await createUser(app);
      const real = (await createToken(app, user)).json<ApiTokenCreatedDto>().token;
      const net = fresh64();
      const guess = (host: number, token = `cb_${'A'.repeat(43)}`) =>
        app.inject({ method: 'GET', url: '/api/teams', remoteAddress: net(host), headers: bearer(token) });

      // A right token spends nothing.
      for (let i = 0; i < 5; i++) expect((await guess(1, real)).statusCode).toBe(200);
      // Three wrong ones (from three addresses of the /64, one malformed) are answered 401 …
      expect((await guess(1)).statusCode).toBe(401);
      expect((await guess(2, 'cb_short')).statusCode).toBe(401);
      expect((await guess(3)).statusCode).toBe(401);
      // … then every cb_ bearer from the /64 waits, a right one too (it could be the next guess).
      const refused = await guess(4);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe('rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await guess(5, real)).statusCode).toBe(429);
      // Another /64, and an IPv4 client, are not held back.
      const other = await app.inject({ method: 'GET', url: '/api/teams', remoteAddress: fresh64()(1), headers: bearer(real) });
      expect(other.statusCode).toBe(200);
      const v4 = await app.inject({ method: 'GET', url: '/api/teams', remoteAddress: '10.35.6.1', headers: bearer(real) });
      expect(v4.statusCode).toBe(200);
      // A session's access token is not a cb_ bearer: not counted, not held back.
      const session = await app.inject({ method: 'GET', url: '/api/teams', remoteAddress: net(6), headers: user.auth });
      expect(session.statusCode).toBe(200);
    });
  });

  it('item 6: RATE_LIMIT_API_TOKEN_MAX and RATE_LIMIT_API_TOKEN_WINDOW configure it', () => {
    const config = loadConfig({
      AUTH_SECRET: 'x'.repeat(32),
      DATA_DIR: '/nonexistent',
      RATE_LIMIT_API_TOKEN_MAX: '7',
      RATE_LIMIT_API_TOKEN_WINDOW: '120',
    });
    expect(config.rateLimits?.apiToken).toEqual({ capacity: 7, windowSeconds: 120 });
  });
});
