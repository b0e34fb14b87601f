import { Secret, TOTP, URI } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { hashRecoveryCode, newRecoveryCodes, normalizeRecoveryCode } from './recovery-codes';
import { looksLikeTotp, matchTotp, newTotpSecret, totpCode, totpUrl } from './totp';

// RFC 6238 appendix B: the SHA-1 secret is the ASCII of '12345678901234567890'; its 8-digit codes end in these 6.
const RFC_SECRET = Secret.fromLatin1('12345678901234567890').base32;

describe('TOTP', () => {
  it('computes the RFC 6238 test vectors (last six digits)', () => {
    expect(totpCode(RFC_SECRET, 59_000)).toBe('287082');
    expect(totpCode(RFC_SECRET, 1_111_111_109_000)).toBe('081804');
    expect(totpCode(RFC_SECRET, 1_234_567_890_000)).toBe('005924');
  });

  it('accepts a code from one step either side of now, not two, and says which step it was', () => {
    const secret = newTotpSecret();
    const now = 1_800_000_015_000; // 15 s into a step
    const step = Math.floor(now / 30_000);
    expect(matchTotp(secret, totpCode(secret, now), now)).toBe(step);
    expect(matchTotp(secret, totpCode(secret, now - 30_000), now)).toBe(step - 1);
    expect(matchTotp(secret, totpCode(secret, now + 30_000), now)).toBe(step + 1);
    expect(matchTotp(secret, totpCode(secret, now - 60_000), now)).toBeNull();
    expect(matchTotp(secret, totpCode(secret, now + 60_000), now)).toBeNull();
  });

  it('refuses another secret, a wrong shape, and takes spaces', () => {
    const secret = newTotpSecret();
    const now = Date.now();
    const code = totpCode(secret, now);
    expect(matchTotp(newTotpSecret(), code, now)).toBeNull();
    expect(matchTotp(secret, `${code.slice(0, 3)} ${code.slice(3)}`, now)).not.toBeNull();
    expect(matchTotp(secret, code.slice(1), now)).toBeNull();
    expect(matchTotp(secret, 'abcdef', now)).toBeNull();
    expect(looksLikeTotp('123 456')).toBe(true);
    expect(looksLikeTotp('abcde-fghjk')).toBe(false);
  });

  it('makes 160-bit secrets and an otpauth URL an app reads back', () => {
    const secret = newTotpSecret();
    expect(Secret.fromBase32(secret).bytes.length).toBe(20);
    const url = totpUrl(secret, 'ann@example.com');
    expect(url).toMatch(/^otpauth:\/\/totp\/Crewboard:ann%40example\.com\?/);
    const parsed = URI.parse(url);
    expect(parsed).toBeInstanceOf(TOTP);
    expect(parsed.secret.base32).toBe(secret);
  });
});

describe('recovery codes', () => {
  it('are ten distinct codes of ten symbols from an unambiguous alphabet', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);
  });

  it('hash to SHA-256 of the normalized code, so case, dashes and spaces do not matter', () => {
    const [code] = newRecoveryCodes(1) as [string];
    expect(hashRecoveryCode(code)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashRecoveryCode(code)).not.toContain(normalizeRecoveryCode(code));
    expect(hashRecoveryCode(` ${code.toUpperCase().replace('-', ' ')} `)).toBe(hashRecoveryCode(code));
    expect(hashRecoveryCode(code.replace('-', ''))).toBe(hashRecoveryCode(code));
    expect(hashRecoveryCode(newRecoveryCodes(1)[0]!)).not.toBe(hashRecoveryCode(code));
  });
});
