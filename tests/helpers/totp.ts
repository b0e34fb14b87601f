import { Secret, TOTP } from 'otpauth';

/** The code an authenticator app shows for `secret` at `timestamp` (RFC 6238: SHA-1, 6 digits, 30 s). */
export const totpAt = (secret: string, timestamp: number): string =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp });

/**
 * Codes from the secret as an app computes them, each for a time step not used yet: the server takes each
 * step once per account, and accepts one step either side of now.
 */
export function codeMaker(secret: string): () => string {
  const used = new Set<number>();
  return () => {
    const step = Math.floor(Date.now() / 30_000);
    const fresh = [0, 1, -1].map((d) => step + d).find((s) => !used.has(s));
    if (fresh === undefined) throw new Error('every step of the window is used: wait for the next one');
    used.add(fresh);
    return totpAt(secret, fresh * 30_000 + 1_000);
  };
}

/** Six digits that are no code of the secret anywhere near now. */
export function wrongCode(secret: string): string {
  const step = Math.floor(Date.now() / 30_000);
  const near = [-2, -1, 0, 1, 2].map((d) => totpAt(secret, (step + d) * 30_000));
  return ['000000', '111111', '222222', '333333', '444444', '555555'].find((c) => !near.includes(c))!;
}
