import { afterAll, describe, expect, it } from 'vitest';
import { hashPassword, usePasswordHashing, verifyPassword } from './passwords';

const params = (hash: string) =>
  Object.fromEntries(
    hash
      .split('$')[3]!
      .split(',')
      .map((kv) => kv.split('=')),
  );

describe('password hashing', () => {
  afterAll(() => usePasswordHashing('owasp'));

  it("hashes with OWASP's argon2id parameters unless told otherwise, and each cost verifies the other's hashes", async () => {
    const strong = await hashPassword('erin passes 123');
    expect(strong.split('$')[1]).toBe('argon2id');
    expect(params(strong)).toEqual({ m: '19456', t: '2', p: '1' });
    usePasswordHashing('test');
    const cheap = await hashPassword('erin passes 123');
    expect(params(cheap)).toEqual({ m: '1024', t: '1', p: '1' });
    expect(await verifyPassword(strong, 'erin passes 123')).toBe(true);
    expect(await verifyPassword(cheap, 'erin passes 123')).toBe(true);
    expect(await verifyPassword(cheap, 'erin passes 124')).toBe(false);
    expect(await verifyPassword(undefined, 'erin passes 123')).toBe(false);
  });
});
