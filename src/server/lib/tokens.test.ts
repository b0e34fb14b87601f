import { describe, expect, it } from 'vitest';
import { TokenService } from './tokens';

const SECRET = 'unit-test-secret-unit-test-secret-0123456789';

describe('TokenService access tokens', () => {
  it('verifies its own token, again from its cache, until the token expires', async () => {
    const tokens = new TokenService(SECRET, 60);
    const now = Date.now();
    const { token } = await tokens.signAccess({ sub: 'user-1', sid: 'session-1' }, now);
    expect(await tokens.verifyAccess(token, now)).toEqual({ sub: 'user-1', sid: 'session-1' });
    expect(await tokens.verifyAccess(token, now + 30_000)).toEqual({ sub: 'user-1', sid: 'session-1' });
    // Expired: refused although it was verified (and remembered) before.
    expect(await tokens.verifyAccess(token, now + 61_000)).toBeNull();
  });

  it('refuses a token signed with another secret or altered', async () => {
    const mine = new TokenService(SECRET, 60);
    const theirs = new TokenService(`${SECRET}-other`, 60);
    const { token } = await theirs.signAccess({ sub: 'user-1', sid: 'session-1' });
    expect(await mine.verifyAccess(token)).toBeNull();
    const { token: good } = await mine.signAccess({ sub: 'user-1', sid: 'session-1' });
    const [header, payload, signature] = good.split('.');
    const forged = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    forged.sub = 'user-2';
    expect(
      await mine.verifyAccess(`${header}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`),
    ).toBeNull();
    expect(await mine.verifyAccess('not-a-token')).toBeNull();
  });

  it('derives the same child refresh token from the same parent, and a different one from another', () => {
    const tokens = new TokenService(SECRET, 60);
    const parent = tokens.newRefreshToken();
    expect(tokens.childRefreshToken(parent)).toBe(tokens.childRefreshToken(parent));
    expect(tokens.childRefreshToken(parent)).not.toBe(tokens.childRefreshToken(tokens.newRefreshToken()));
  });
});
