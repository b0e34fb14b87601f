import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type {
  MfaRequiredResponse,
  RecoveryCodesDto,
  TwoFactorSetupDto,
  TwoFactorStatusDto,
} from '../../src/domain/schemas/security';
import { passwordCredentials, recoveryCodes } from '../../src/server/db/schema';
import { createUser, enableTwoFactor, type TestUser } from '../factories';
import { setupTestApp } from '../helpers/app';

/**
 * Settings → Security, two-factor: the password is asked again before a setup and before new recovery codes
 * (POST /api/me/2fa/recovery-codes: ten new ones, shown once; the old ones stop working).
 */

const ctx = setupTestApp();
// Limits on: a password given here counts like a sign-in's.
const limited = setupTestApp({ rateLimitEnabled: true });

const post = (app: FastifyInstance, url: string, payload: unknown, user?: TestUser) =>
  app.inject({ method: 'POST', url, payload: payload as never, headers: user?.auth ?? {} });

const status = async (user: TestUser) =>
  (await ctx.app.inject({ method: 'GET', url: '/api/me/2fa', headers: user.auth })).json() as TwoFactorStatusDto;

const errorOf = (res: { json: () => unknown }) =>
  (res.json() as { error: { code: string; reason?: string; fields?: Record<string, string> } }).error;

/** Signs in with the password, then `code`; the code step's answer. */
async function signInWith(user: TestUser, code: string) {
  const first = await post(ctx.app, '/api/auth/token?grant_type=password', { email: user.email, password: user.password });
  expect(first.statusCode).toBe(401);
  const mfaToken = (first.json() as MfaRequiredResponse).error.mfa_token;
  return post(ctx.app, '/api/auth/token?grant_type=mfa', { mfa_token: mfaToken, code });
}

describe('two-factor setup asks for the password again', () => {
  it('refuses a missing or wrong password (no secret is made), then sets up with the right one', async () => {
    const user = await createUser(ctx.app);
    for (const body of [{}, { currentPassword: 'not my password' }]) {
      const res = await post(ctx.app, '/api/me/2fa/setup', body, user);
      expect(res.statusCode).toBe(400);
      expect(errorOf(res)).toMatchObject({ reason: 'wrong_password', fields: { currentPassword: expect.any(String) } });
    }
    // No body at all, or unknown keys: 400, never a secret.
    expect((await post(ctx.app, '/api/me/2fa/setup', undefined, user)).statusCode).toBe(400);
    expect((await post(ctx.app, '/api/me/2fa/setup', { currentPassword: user.password, secret: 'AAAA' }, user)).statusCode).toBe(
      400,
    );
    const noSecret = await post(ctx.app, '/api/me/2fa/enable', { code: '123456' }, user);
    expect(errorOf(noSecret).reason).toBe('mfa_setup_missing');

    const res = await post(ctx.app, '/api/me/2fa/setup', { currentPassword: user.password }, user);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect((res.json() as TwoFactorSetupDto).secret).toMatch(/^[A-Z2-7]+$/);
  });

  it('an account without a password (Google sign-in alone) has none to give: its session is the proof', async () => {
    const user = await createUser(ctx.app);
    await ctx.database.db.delete(passwordCredentials).where(eq(passwordCredentials.userId, user.id));
    const res = await post(ctx.app, '/api/me/2fa/setup', {}, user);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('anonymous callers get 401', async () => {
    expect((await post(ctx.app, '/api/me/2fa/setup', {})).statusCode).toBe(401);
    expect((await post(ctx.app, '/api/me/2fa/recovery-codes', {})).statusCode).toBe(401);
  });

  it('guesses count like sign-in failures: the sixth waits (429), and so does the sign-in', async () => {
    const user = await createUser(limited.app);
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      codes.push((await post(limited.app, '/api/me/2fa/setup', { currentPassword: `guess ${i}` }, user)).statusCode);
    }
    expect(codes).toEqual([400, 400, 400, 400, 400, 429]);
    const signIn = await post(limited.app, '/api/auth/token?grant_type=password', { email: user.email, password: user.password });
    expect(signIn.statusCode).toBe(429);
  });
});

describe('regenerating recovery codes', () => {
  it('needs two-factor on and the password; then ten new codes, the old ones void, each new one works once', async () => {
    const user = await createUser(ctx.app);
    const off = await post(ctx.app, '/api/me/2fa/recovery-codes', { currentPassword: user.password }, user);
    expect(off.statusCode).toBe(409);
    expect(errorOf(off).reason).toBe('mfa_not_enabled');

    const { recoveryCodes: old } = await enableTwoFactor(ctx.app, user);
    // The first old code is spent before the regeneration: the count goes back to ten all the same.
    expect((await signInWith(user, old[0]!)).statusCode).toBe(200);
    expect(await status(user)).toMatchObject({ recoveryCodesLeft: 9 });

    for (const body of [{}, { currentPassword: 'not my password' }]) {
      const res = await post(ctx.app, '/api/me/2fa/recovery-codes', body, user);
      expect(res.statusCode).toBe(400);
      expect(errorOf(res)).toMatchObject({ reason: 'wrong_password', fields: { currentPassword: expect.any(String) } });
    }
    expect(await status(user)).toMatchObject({ recoveryCodesLeft: 9 });

    const res = await post(ctx.app, '/api/me/2fa/recovery-codes', { currentPassword: user.password }, user);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const fresh = (res.json() as RecoveryCodesDto).recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(new Set(fresh).size).toBe(10);
    expect(fresh.filter((c) => old.includes(c))).toEqual([]);
    expect(await status(user)).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    // Stored hashed: none of the codes appears in the table.
    const rows = await ctx.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(rows).toHaveLength(10);
    expect(rows.some((r) => fresh.includes(r.codeHash) || r.codeHash.includes(fresh[0]!.replace('-', '')))).toBe(false);

    // An old, unspent code no longer signs in; a new one does, once.
    const stale = await signInWith(user, old[1]!);
    expect(stale.statusCode).toBe(400);
    expect(errorOf(stale).reason).toBe('mfa_code_invalid');
    expect((await signInWith(user, fresh[3]!)).statusCode).toBe(200);
    expect((await signInWith(user, fresh[3]!)).statusCode).toBe(400);
    expect(await status(user)).toMatchObject({ recoveryCodesLeft: 9 });
    // Turning two-factor off takes the new codes with it.
    expect((await post(ctx.app, '/api/me/2fa/disable', { password: user.password }, user)).statusCode).toBe(204);
    expect(await ctx.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toEqual([]);
  });

  it('without a password (Google account) the session is the proof; an unknown key is refused', async () => {
    const user = await createUser(ctx.app);
    await enableTwoFactor(ctx.app, user);
    expect(
      (await post(ctx.app, '/api/me/2fa/recovery-codes', { currentPassword: user.password, count: 50 }, user)).statusCode,
    ).toBe(400);
    await ctx.database.db.delete(passwordCredentials).where(eq(passwordCredentials.userId, user.id));
    const res = await post(ctx.app, '/api/me/2fa/recovery-codes', {}, user);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as RecoveryCodesDto).recoveryCodes).toHaveLength(10);
  });

  it("each user's own: regenerating touches nobody else's codes", async () => {
    const [a, b] = [await createUser(ctx.app), await createUser(ctx.app)];
    await enableTwoFactor(ctx.app, a);
    const { recoveryCodes: bCodes } = await enableTwoFactor(ctx.app, b);
    expect((await post(ctx.app, '/api/me/2fa/recovery-codes', { currentPassword: a.password }, a)).statusCode).toBe(200);
    expect(await status(b)).toMatchObject({ recoveryCodesLeft: 10 });
    expect((await signInWith(b, bCodes[0]!)).statusCode).toBe(200);
  });
});
