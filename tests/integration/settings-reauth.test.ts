import { describe, expect, it } from 'vitest';
import { createUser } from '../factories';
import { setupTestApp } from '../helpers/app';

// Rate limits on: a password given again in Settings is counted like a sign-in's.
const ctx = setupTestApp({ rateLimitEnabled: true });

describe('settings: re-authentication', () => {
  it("shares the sign-in guard: guesses through Settings slow down that account's sign-ins from the IP, and vice versa", async () => {
    const user = await createUser(ctx.app);
    const guess = (i: number) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/me/password',
        headers: user.auth,
        payload: { currentPassword: `guess number ${i}`, password: 'a brand new secret' },
      });
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await guess(i)).statusCode);
    // Five free failures (RATE_LIMITS.accountIp), then each attempt waits.
    expect(codes).toEqual([400, 400, 400, 400, 400, 429]);
    const signIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/token?grant_type=password',
      payload: { email: user.email, password: user.password },
    });
    expect(signIn.statusCode).toBe(429);
    const remove = await ctx.app.inject({
      method: 'POST',
      url: '/api/me/delete',
      headers: user.auth,
      payload: { email: user.email, currentPassword: 'one more guess' },
    });
    expect(remove.statusCode).toBe(429);
  });
});
