import { Secret, TOTP } from 'otpauth';
import { TWO_FACTOR } from '../../../domain/schemas/security';

/**
 * TOTP (RFC 6238) through `otpauth`: SHA-1, six digits, 30-second steps, the profile every authenticator
 * app reads from an otpauth:// URL.
 */
const PROFILE = { algorithm: 'SHA1', digits: TWO_FACTOR.codeDigits, period: TWO_FACTOR.periodSeconds } as const;

/** A new secret: 160 random bits (RFC 4226 §4 recommends them), in base32 as apps take it. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The otpauth:// URL an authenticator app scans: 'Crewboard (email)' with the secret. */
export const totpUrl = (secret: string, account: string): string =>
  new TOTP({ ...PROFILE, issuer: TWO_FACTOR.issuer, label: account, secret: Secret.fromBase32(secret) }).toString();

/** True when the text has the shape of an app's code (six digits, spaces aside), rather than of a recovery code. */
export const looksLikeTotp = (code: string): boolean =>
  new RegExp(`^\\d{${TWO_FACTOR.codeDigits}}$`).test(code.replace(/\s/g, ''));

/**
 * The time step a code belongs to when it is right for `secret` within `windowSteps` steps of `now`,
 * else null. The step lets the caller refuse a code a second time (RFC 6238 §5.2).
 */
export function matchTotp(
  secret: string,
  code: string,
  now = Date.now(),
  windowSteps: number = TWO_FACTOR.windowSteps,
): number | null {
  const token = code.replace(/\s/g, '');
  if (!looksLikeTotp(token)) return null;
  const delta = TOTP.validate({ ...PROFILE, secret: Secret.fromBase32(secret), token, timestamp: now, window: windowSteps });
  return delta === null ? null : TOTP.counter({ period: PROFILE.period, timestamp: now }) + delta;
}

/** The code of `secret` at `now` (tests compute codes the way an app does). */
export const totpCode = (secret: string, now = Date.now()): string =>
  TOTP.generate({ ...PROFILE, secret: Secret.fromBase32(secret), timestamp: now });
