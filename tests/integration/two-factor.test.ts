import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { SessionDto } from '../../src/domain/schemas/auth';
import type { MfaRequiredResponse, TwoFactorSetupDto, TwoFactorStatusDto } from '../../src/domain/schemas/security';
import { recoveryCodes, users } from '../../src/server/db/schema';
import { createUser, enableTwoFactor, type TestUser } from '../factories';
import { setupTestApp } from '../helpers/app';
import { codeMaker, wrongCode } from '../helpers/totp';

/**
 * Two-factor sign-in: setup → enable with a code computed from the secret → sign-in asks for a code →
 * wrong codes refused (and rate-limited) → the right code gives a session → a recovery code works once → off.
 */

const ctx = setupTestApp();
// The same, with every limit on (the sign-in buckets wide enough for the test's own requests).
const limited = setupTestApp({ rateLimitEnabled: true, rateLimits: { auth: { capacity: 1000 } } });

const post = (app: FastifyInstance, url: string, payload: unknown, user?: TestUser, remoteAddress?: string) =>
  app.inject({ method: 'POST', url, payload: payload as never, headers: user?.auth ?? {}, remoteAddress });

const status = async (app: FastifyInstance, user: TestUser) =>
  (await app.inject({ method: 'GET', url: '/api/me/2fa', headers: user.auth })).json() as TwoFactorStatusDto;

/** The password step: for an account with two-factor on, 401 `mfa_required` and its mfa_token. */
async function passwordStep(app: FastifyInstance, user: TestUser, remoteAddress?: string): Promise<string> {
  const res = await post(
    app,
    '/api/auth/token?grant_type=password',
    { email: user.email, password: user.password },
    undefined,
    remoteAddress,
  );
  expect(res.statusCode, res.body).toBe(401);
  const body = res.json() as MfaRequiredResponse;
  expect(body.error).toMatchObject({ code: 'unauthenticated', reason: 'mfa_required' });
  expect(body).not.toHaveProperty('access_token');
  expect(res.headers['cache-control']).toBe('no-store');
  return body.error.mfa_token;
}

const codeStep = (app: FastifyInstance, mfaToken: string, code: string, remoteAddress?: string) =>
  post(app, '/api/auth/token?grant_type=mfa', { mfa_token: mfaToken, code }, undefined, remoteAddress);

describe('two-factor sign-in', () => {
  it('setup → enable → sign-in asks for the code → the right code signs in, once → a recovery code once → off', async () => {
    const user = await createUser(ctx.app);
    expect(await status(ctx.app, user)).toEqual({ enabled: false, enabledAt: null, recoveryCodesLeft: 0 });

    // Setup: a secret in text, as an otpauth:// URL and as a QR code; not in force yet.
    const setup = await post(ctx.app, '/api/me/2fa/setup', { currentPassword: user.password }, user);
    expect(setup.statusCode, setup.body).toBe(200);
    expect(setup.headers['cache-control']).toBe('no-store');
    const { secret, otpauthUrl, qr } = setup.json() as TwoFactorSetupDto;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toContain(`secret=${secret}`);
    expect(otpauthUrl).toContain('issuer=Crewboard');
    expect(qr).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qr.split(',')[1]!, 'base64').toString()).toContain('<svg');
    // Kept sealed: the column does not hold the secret.
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.totpSecret).toBeTruthy();
    expect(row!.totpSecret).not.toContain(secret);
    expect(row!.totpEnabledAt).toBeNull();
    expect(
      (await post(ctx.app, '/api/auth/token?grant_type=password', { email: user.email, password: user.password })).statusCode,
    ).toBe(200);

    // Enable: a wrong code is refused; a code from the secret turns it on and gives ten recovery codes, once.
    const nextCode = codeMaker(secret);
    const wrong = await post(ctx.app, '/api/me/2fa/enable', { code: wrongCode(secret) }, user);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.reason).toBe('mfa_code_invalid');
    const enabled = await post(ctx.app, '/api/me/2fa/enable', { code: nextCode() }, user);
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.headers['cache-control']).toBe('no-store');
    const codes = enabled.json().recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const stored = await ctx.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    for (const r of stored) {
      expect(r.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(codes.some((c) => r.codeHash.includes(c.replace('-', '')))).toBe(false);
    }
    expect(await status(ctx.app, user)).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    // On: a new setup would swap the secret under the account; refused.
    const again = await post(ctx.app, '/api/me/2fa/setup', { currentPassword: user.password }, user);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.reason).toBe('mfa_already_enabled');

    // Sign-in: the password alone gives no session, but an mfa_token.
    const mfaToken = await passwordStep(ctx.app, user);
    const bad = await codeStep(ctx.app, mfaToken, wrongCode(secret));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.reason).toBe('mfa_code_invalid');
    const code = nextCode();
    const ok = await codeStep(ctx.app, mfaToken, code);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.headers['cache-control']).toBe('no-store');
    const session = ok.json() as SessionDto;
    expect(session.user.id).toBe(user.id);
    expect(
      (
        await ctx.app.inject({
          method: 'GET',
          url: '/api/auth/user',
          headers: { authorization: `Bearer ${session.access_token}` },
        })
      ).statusCode,
    ).toBe(200);
    // The same code a second time (a replay) is refused (RFC 6238 §5.2).
    const replay = await codeStep(ctx.app, await passwordStep(ctx.app, user), code);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.reason).toBe('mfa_code_invalid');

    // A forged, or tampered, mfa_token is refused whatever the code.
    for (const forged of ['not-a-token', `${mfaToken.slice(0, -4)}AAAA`]) {
      const res = await codeStep(ctx.app, forged, '123456');
      expect(res.statusCode).toBe(400);
      expect(res.json().error.reason).toBe('mfa_token_invalid');
    }

    // A recovery code works once (typed in capitals, without its dash), and not twice.
    const recovery = codes[3]!;
    const first = await codeStep(ctx.app, await passwordStep(ctx.app, user), recovery.replace('-', '').toUpperCase());
    expect(first.statusCode, first.body).toBe(200);
    const second = await codeStep(ctx.app, await passwordStep(ctx.app, user), recovery);
    expect(second.statusCode).toBe(400);
    expect(second.json().error.reason).toBe('mfa_code_invalid');
    expect(await status(ctx.app, user)).toMatchObject({ enabled: true, recoveryCodesLeft: 9 });

    // Off: a wrong password is refused; a right code turns it off, and the password alone signs in again.
    const wrongPassword = await post(ctx.app, '/api/me/2fa/disable', { password: 'not my password' }, user);
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().error.reason).toBe('wrong_password');
    const off = await post(ctx.app, '/api/me/2fa/disable', { code: codes[0] }, user);
    expect(off.statusCode, off.body).toBe(204);
    expect(await status(ctx.app, user)).toEqual({ enabled: false, enabledAt: null, recoveryCodesLeft: 0 });
    expect(await ctx.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toEqual([]);
    const [after] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
    expect(after!.totpSecret).toBeNull();
    expect(
      (await post(ctx.app, '/api/auth/token?grant_type=password', { email: user.email, password: user.password })).statusCode,
    ).toBe(200);
    // An mfa_token from before is void once two-factor is off.
    const stale = await codeStep(ctx.app, mfaToken, '123456');
    expect(stale.statusCode).toBe(400);
    expect(stale.json().error.reason).toBe('mfa_token_invalid');
    const offAgain = await post(ctx.app, '/api/me/2fa/disable', { password: user.password }, user);
    expect(offAgain.statusCode).toBe(409);
    expect(offAgain.json().error.reason).toBe('mfa_not_enabled');
  });

  it('turns off with the password too; enabling needs a setup first; a wrong password still gets no mfa_token', async () => {
    const user = await createUser(ctx.app);
    const early = await post(ctx.app, '/api/me/2fa/enable', { code: '123456' }, user);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.reason).toBe('mfa_setup_missing');

    await enableTwoFactor(ctx.app, user);
    const wrong = await post(ctx.app, '/api/auth/token?grant_type=password', { email: user.email, password: 'wrong password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).not.toHaveProperty('mfa_token');
    expect(wrong.json().error.code).toBe('invalid_credentials');

    const off = await post(ctx.app, '/api/me/2fa/disable', { password: user.password }, user);
    expect(off.statusCode, off.body).toBe(204);
    expect(await status(ctx.app, user)).toMatchObject({ enabled: false });
  });

  it('a deactivated account gets no session from the code step', async () => {
    const user = await createUser(ctx.app);
    const { nextCode } = await enableTwoFactor(ctx.app, user);
    const mfaToken = await passwordStep(ctx.app, user);
    await ctx.database.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    const res = await codeStep(ctx.app, mfaToken, nextCode());
    expect(res.statusCode).toBe(400);
    expect(res.json().error.reason).toBe('mfa_token_invalid');
  });
});

describe('two-factor codes are rate-limited per account', () => {
  it('after five tries on the account (from any address) the next waits, even with the right code; other accounts do not', async () => {
    const user = await createUser(limited.app);
    const { secret, nextCode } = await enableTwoFactor(limited.app, user);
    const mfaToken = await passwordStep(limited.app, user, '203.0.113.1');
    for (let i = 0; i < 5; i++) {
      const res = await codeStep(limited.app, mfaToken, wrongCode(secret), '203.0.113.1');
      expect(res.statusCode, res.body).toBe(400);
    }
    // Another address, another mfa_token: the same account's count.
    const elsewhere = await passwordStep(limited.app, user, '198.51.100.9');
    const held = await codeStep(limited.app, elsewhere, nextCode(), '198.51.100.9');
    expect(held.statusCode).toBe(429);
    expect(Number(held.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Turning it off by code counts there too.
    const disable = await post(limited.app, '/api/me/2fa/disable', { code: wrongCode(secret) }, user);
    expect(disable.statusCode).toBe(429);

    // Another account is not held back.
    const other = await createUser(limited.app);
    const { nextCode: otherCode } = await enableTwoFactor(limited.app, other);
    const ok = await codeStep(limited.app, await passwordStep(limited.app, other), otherCode());
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
