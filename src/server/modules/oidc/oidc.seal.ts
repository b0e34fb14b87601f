import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { EncryptJWT, jwtDecrypt, type JWTPayload } from 'jose';

/**
 * Encrypted, expiring values (JWE, A256GCM) under a key derived from the app secret, one key per
 * purpose so a state cookie can never pass as a one-time code.
 */
export class Sealer {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly purpose: string,
  ) {
    this.key = new Uint8Array(createHmac('sha256', secret).update(`oidc:${purpose}`).digest());
  }

  /** Without `ttlSeconds`, the value never expires (a secret kept at rest). */
  seal(payload: JWTPayload, ttlSeconds?: number): Promise<string> {
    const jwt = new EncryptJWT(payload)
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setIssuedAt()
      .setAudience(this.purpose);
    if (ttlSeconds !== undefined) jwt.setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds);
    return jwt.encrypt(this.key);
  }

  /** The payload, or null when the value is forged, for another purpose or expired. */
  async open(value: string): Promise<JWTPayload | null> {
    try {
      const { payload } = await jwtDecrypt(value, this.key, { audience: this.purpose, clockTolerance: 0 });
      return payload;
    } catch {
      return null;
    }
  }
}

export const randomToken = () => randomBytes(32).toString('base64url');

/** base64url(SHA-256(value)): the S256 PKCE challenge of a verifier (RFC 7636 §4.2), the digest of a binding. */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
export const pkceChallenge = sha256;

/** True when `value` hashes to `digest` (compared in constant time). */
export function matchesDigest(value: string | undefined, digest: unknown): boolean {
  if (!value || typeof digest !== 'string') return false;
  const a = Buffer.from(sha256(value));
  const b = Buffer.from(digest);
  return a.length === b.length && timingSafeEqual(a, b);
}
