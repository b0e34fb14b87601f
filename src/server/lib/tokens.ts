import { createHash, createHmac, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

const ISSUER = 'crewboard';
const AUDIENCE = 'authenticated';

export interface AccessClaims {
  sub: string;
  sid: string;
}

/** How many verified access tokens are remembered (per process), so a token's signature is checked once. */
const VERIFIED_CACHE_SIZE = 10_000;

export class TokenService {
  private readonly key: Uint8Array;
  private readonly refreshKey: Buffer;
  /** Verified tokens → their claims and expiry (s). A signature check is deterministic, so a hit is as good as a check. */
  private readonly verified = new Map<string, AccessClaims & { exp: number }>();

  constructor(
    secret: string,
    readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(createHmac('sha256', secret).update('access-token').digest('hex'));
    this.refreshKey = createHmac('sha256', secret).update('refresh-token').digest();
  }

  async signAccess(claims: AccessClaims, now = Date.now()): Promise<{ token: string; expiresAt: number }> {
    const iat = Math.floor(now / 1000);
    const exp = iat + this.ttlSeconds;
    const token = await new SignJWT({ sid: claims.sid, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.key);
    return { token, expiresAt: exp };
  }

  /** Verifies signature (HS256 only), issuer, audience and expiry. Returns null when invalid. */
  async verifyAccess(token: string, now = Date.now()): Promise<AccessClaims | null> {
    const hit = this.verified.get(token);
    if (hit) {
      if (hit.exp > now / 1000) return { sub: hit.sub, sid: hit.sid };
      this.verified.delete(token);
      return null;
    }
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        clockTolerance: 0,
        currentDate: new Date(now),
      });
      if (payload.typ !== 'access' || typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
      if (typeof payload.exp === 'number') {
        // Oldest first out: a Map iterates in insertion order.
        if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
        this.verified.set(token, { sub: payload.sub, sid: payload.sid, exp: payload.exp });
      }
      return { sub: payload.sub, sid: payload.sid };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
      throw error;
    }
  }

  /** A fresh random refresh token. */
  newRefreshToken(): string {
    return randomBytes(32).toString('base64url');
  }

  /**
   * The token that replaces `parent` on rotation. Derived, so that a retried refresh with the
   * parent can be answered with the same live token without storing tokens in clear.
   */
  childRefreshToken(parent: string): string {
    return createHmac('sha256', this.refreshKey).update(parent).digest('base64url');
  }
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
