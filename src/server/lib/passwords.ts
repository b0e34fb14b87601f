import argon2 from 'argon2';

/**
 * How hard a password hash is to compute (PASSWORD_HASHING): `owasp`, OWASP's argon2id parameters (m=19456 KiB, t=2,
 * p=1), always in production; `test`, the cheapest argon2id (m=1024 KiB, t=1), for the test suites only, which hash
 * hundreds of passwords on two cores (config refuses it with NODE_ENV=production). A stored hash carries its own
 * parameters, so either verifies the other's hashes.
 */
export const PASSWORD_HASHING = {
  owasp: { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 },
  test: { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 },
} as const;
export type PasswordHashing = keyof typeof PASSWORD_HASHING;

let options: (typeof PASSWORD_HASHING)[PasswordHashing] = PASSWORD_HASHING.owasp;
let dummyHash: Promise<string> | undefined;

/** Sets the cost of new hashes for this process (buildApp, from the config). */
export function usePasswordHashing(profile: PasswordHashing): void {
  if (options === PASSWORD_HASHING[profile]) return;
  options = PASSWORD_HASHING[profile];
  dummyHash = undefined;
}

export const hashPassword = (password: string) => argon2.hash(password, options);

/**
 * Verifies a password. With no stored hash it still spends the same work on a dummy one,
 * so an unknown email and a wrong password take the same time.
 */
export async function verifyPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  if (!hash) {
    dummyHash ??= hashPassword('dummy password for timing');
    await argon2.verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}
