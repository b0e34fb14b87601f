import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { UserTokenPurpose } from '../../src/domain/constants';
import { buildApp } from '../../src/server/app';
import { mailOutbox, users, userTokens } from '../../src/server/db/schema';
import { hashToken } from '../../src/server/lib/tokens';
import { createUser, uniqueEmail } from '../factories';
import { setupTestApp, testConfig } from '../helpers/app';

/**
 * Issue 35, item 13: GET /api/auth/link-status tells a link's page, when it opens, whether the link still works, so that
 * a used or expired reset link says so before anyone types a new password. Reading it spends nothing, and the answer
 * says nothing of whose link it is.
 */
const ctx = setupTestApp({ emailVerification: 'required' });

const post = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url, payload: payload as never, headers });

const status = (purpose: string, token: string, app: FastifyInstance = ctx.app, remoteAddress?: string) =>
  app.inject({
    method: 'GET',
    url: `/api/auth/link-status?purpose=${encodeURIComponent(purpose)}&token=${encodeURIComponent(token)}`,
    remoteAddress,
  });

async function isValid(purpose: UserTokenPurpose, token: string): Promise<boolean> {
  const res = await status(purpose, token);
  expect(res.statusCode, res.body).toBe(200);
  // Only the one flag: no address, name or id of the account.
  expect(Object.keys(res.json())).toEqual(['valid']);
  return res.json().valid;
}

/** The token of the last link to `path` mailed to `to`. */
async function linkToken(to: string, path: '/verify-email' | '/reset-password' | '/confirm-email'): Promise<string> {
  const mails = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.toEmail, to)).orderBy(asc(mailOutbox.id));
  const pattern = new RegExp(`http://localhost:3000${path}\\?token=([A-Za-z0-9_-]+)`);
  const tokens = mails.map((m) => m.textBody.match(pattern)?.[1]).filter(Boolean);
  if (!tokens.length) throw new Error(`no ${path} link mailed to ${to}`);
  return tokens.at(-1)!;
}

const openTokens = (token: string) =>
  ctx.database.db
    .select({ id: userTokens.id })
    .from(userTokens)
    .where(and(eq(userTokens.tokenHash, hashToken(token)), isNull(userTokens.usedAt)));

describe('GET /api/auth/link-status', () => {
  it('a reset link is valid until it is used, however often it is checked; then invalid', async () => {
    const user = await createUser(ctx.app);
    expect((await post('/api/auth/forgot-password', { email: user.email })).statusCode).toBe(202);
    const token = await linkToken(user.email, '/reset-password');

    for (const _ of [1, 2, 3]) expect(await isValid('reset_password', token)).toBe(true);
    // No side effect: the link is still open and still works.
    expect(await openTokens(token)).toHaveLength(1);
    // The check is for the link's own purpose only.
    expect(await isValid('verify_email', token)).toBe(false);
    expect(await isValid('change_email', token)).toBe(false);

    expect((await post('/api/auth/reset-password', { token, password: 'a brand new password' })).statusCode).toBe(204);
    expect(await isValid('reset_password', token)).toBe(false);
  });

  it('an expired reset link, an unknown one, and one for an address the account has left are invalid', async () => {
    const user = await createUser(ctx.app);
    await post('/api/auth/forgot-password', { email: user.email });
    const token = await linkToken(user.email, '/reset-password');
    expect(await isValid('reset_password', token)).toBe(true);
    await ctx.database.db
      .update(userTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(userTokens.tokenHash, hashToken(token)));
    expect(await isValid('reset_password', token)).toBe(false);

    expect(await isValid('reset_password', 'x'.repeat(43))).toBe(false);

    const mover = await createUser(ctx.app);
    await post('/api/auth/forgot-password', { email: mover.email });
    const moved = await linkToken(mover.email, '/reset-password');
    await ctx.database.db
      .update(users)
      .set({ email: uniqueEmail('moved') })
      .where(eq(users.id, mover.id));
    expect(await isValid('reset_password', moved)).toBe(false);
    // The same answer the reset itself gives.
    expect((await post('/api/auth/reset-password', { token: moved, password: 'a brand new password' })).json().error.reason).toBe(
      'link_invalid',
    );
  });

  it('a verification link is valid until it is used', async () => {
    const user = await createUser(ctx.app);
    const token = await linkToken(user.email, '/verify-email');
    expect(await isValid('verify_email', token)).toBe(true);
    expect(await isValid('verify_email', token)).toBe(true);
    expect((await post('/api/auth/verify-email', { token })).statusCode).toBe(204);
    expect(await isValid('verify_email', token)).toBe(false);
  });

  it('an email-change link is valid until it is used, and not once the account is deactivated', async () => {
    const user = await createUser(ctx.app);
    const next = uniqueEmail('next');
    expect((await post('/api/me/email', { email: next, currentPassword: user.password }, user.auth)).statusCode).toBe(202);
    const token = await linkToken(next, '/confirm-email');
    expect(await isValid('change_email', token)).toBe(true);
    expect(await isValid('change_email', token)).toBe(true);
    expect((await post('/api/auth/confirm-email-change', { token })).statusCode).toBe(204);
    expect(await isValid('change_email', token)).toBe(false);

    const other = await createUser(ctx.app);
    const later = uniqueEmail('later');
    await post('/api/me/email', { email: later, currentPassword: other.password }, other.auth);
    const pending = await linkToken(later, '/confirm-email');
    expect(await isValid('change_email', pending)).toBe(true);
    await ctx.database.db.update(users).set({ isActive: false }).where(eq(users.id, other.id));
    expect(await isValid('change_email', pending)).toBe(false);
  });

  it('answers 400 to a missing or malformed query, never 500', async () => {
    const cases = [
      '/api/auth/link-status',
      '/api/auth/link-status?token=abc',
      '/api/auth/link-status?purpose=reset_password',
      '/api/auth/link-status?purpose=reset_password&token=',
      '/api/auth/link-status?purpose=sign_in&token=abc',
      `/api/auth/link-status?purpose=reset_password&token=${'a'.repeat(201)}`,
      '/api/auth/link-status?purpose=reset_password&token=abc&email=a@b.c',
      '/api/auth/link-status?purpose=reset_password&token=a&token=b',
    ];
    for (const url of cases) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.code, url).toBe('validation_failed');
    }
  });

  it('is rate-limited per IP like the other link routes', async () => {
    const config = testConfig({
      emailVerification: 'required',
      authSecret: ctx.config.authSecret,
      rateLimitEnabled: true,
      rateLimits: { auth: { capacity: 3 } },
    });
    const app = await buildApp({ config, database: ctx.database });
    try {
      const statuses = [];
      for (const _ of [1, 2, 3, 4]) statuses.push((await status('reset_password', 'x'.repeat(43), app, '10.35.13.1')).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect((await status('reset_password', 'x'.repeat(43), app, '10.35.13.2')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
