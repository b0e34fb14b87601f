/** Settings → Security: the signed-in person's sessions, and two-factor sign-in with TOTP (RFC 6238). */
import { z } from 'zod';
import { ERRORS } from '../errors';
import { passwordInput } from './auth';
import { errorResponse, isoDateTime, uuid } from './common';

/**
 * Settings → Security's texts, and the sign-in's code step's ('Authentication code', 'Sign out' and 'Sign out
 * all other sessions' are issue 21's words). Not in messages.ts: the sign-in page's start-up chunk carries that
 * module whole, every export of it (Rollup keeps a module in one chunk); these load with Settings and the code step.
 */
export const SECURITY_MSG = {
  authCode: 'Authentication code',
  signOut: 'Sign out',
  signOutOtherSessions: 'Sign out all other sessions',
  /** The box beside a password change (ticked) and 'Sign out all other sessions' (unticked): issue 35's words. */
  alsoRevokeTokens: 'Also revoke API tokens and calendar links',
  sessionSignedOut: 'Session signed out',
  otherSessionsSignedOut: 'All other sessions signed out',
  sessionSignOutFailed: 'Failed to sign out the session',
  twoFactorEnabled: 'Two-factor authentication enabled',
  twoFactorDisabled: 'Two-factor authentication disabled',
  twoFactorSetupFailed: 'Failed to set up two-factor authentication',
  twoFactorDisableFailed: 'Failed to turn off two-factor authentication',
  recoveryCodesCopied: 'Recovery codes copied',
  copyFailed: 'Could not copy. Please select the codes and copy them.',
  authCodeRequired: 'Authentication code is required',
  regenerateRecoveryCodes: 'Regenerate recovery codes',
  recoveryCodesRegenerated: 'New recovery codes generated',
  recoveryCodesRegenerateFailed: 'Failed to generate new recovery codes',
} as const;

export const TWO_FACTOR = {
  /** Digits of a code from an authenticator app (RFC 6238's common profile: SHA-1, 30 s steps). */
  codeDigits: 6,
  periodSeconds: 30,
  /** Steps either side of now a code may come from: a phone's clock a little off, a code typed as it changed. */
  windowSteps: 1,
  recoveryCodes: 10,
  /** How long the step between the password and the code may take (the mfa_token's life). */
  challengeSeconds: 300,
  issuer: 'Crewboard',
} as const;

/** An authentication code as typed: six digits from the app, or a recovery code (spaces and dashes aside). */
export const authCodeInput = z
  .string({ error: SECURITY_MSG.authCodeRequired })
  .trim()
  .min(1, SECURITY_MSG.authCodeRequired)
  .max(64, ERRORS.mfa_code_invalid.message);

/** POST /api/auth/token?grant_type=mfa: the token of the password step, and a code. */
export const mfaGrantInput = z.object({ mfa_token: z.string().min(1).max(2000), code: authCodeInput }).strict();
export type MfaGrantInput = z.infer<typeof mfaGrantInput>;

const { code, message, reason, fields } = errorResponse.shape.error.shape;
/**
 * The answer to a right password when the account has two-factor sign-in on (401, reason `mfa_required`): the
 * error body with the token of the password step. Required fields first, as the serializer writes them.
 */
export const mfaRequiredResponse = z.object({ error: z.object({ code, message, mfa_token: z.string(), reason, fields }) });
export type MfaRequiredResponse = z.infer<typeof mfaRequiredResponse>;

/** One live session of the caller, as Settings → Security lists it. */
export const sessionItemDto = z.object({
  id: uuid,
  /** 'Chrome on Linux' (domain/user-agent.ts). */
  device: z.string(),
  ip: z.string().nullable(),
  createdAt: isoDateTime,
  /** The last refresh, or the sign-in when there was none. */
  lastSeenAt: isoDateTime,
  /** The session of the access token this list was asked with. */
  current: z.boolean(),
});
export type SessionItemDto = z.infer<typeof sessionItemDto>;

export const sessionListDto = z.object({ sessions: z.array(sessionItemDto) });
export type SessionListDto = z.infer<typeof sessionListDto>;

/**
 * POST /api/me/sessions/revoke-others: `revokeTokens` (default false, the box unticked) revokes every personal API
 * token and the calendar feed's link too. The body may be left out.
 */
export const revokeOthersInput = z.object({ revokeTokens: z.boolean().default(false) }).strict();
export type RevokeOthersInput = z.input<typeof revokeOthersInput>;

export const revokeOthersResponse = z.object({ revoked: z.number().int() });

export const twoFactorStatusDto = z.object({
  enabled: z.boolean(),
  enabledAt: isoDateTime.nullable(),
  recoveryCodesLeft: z.number().int(),
});
export type TwoFactorStatusDto = z.infer<typeof twoFactorStatusDto>;

/** POST /api/me/2fa/setup: the new secret in text, as an otpauth:// URL, and that URL as a QR code (an SVG data URL). */
export const twoFactorSetupDto = z.object({ secret: z.string(), otpauthUrl: z.string(), qr: z.string() });
export type TwoFactorSetupDto = z.infer<typeof twoFactorSetupDto>;

/** A form with the one field 'Authentication code' (the sign-in's code step, turning two-factor on or off). */
export const authCodeForm = z.object({ code: authCodeInput }).strict();

/** POST /api/me/2fa/enable: a code from the app proves the secret was taken. */
export const enableTwoFactorInput = authCodeForm;
export type EnableTwoFactorInput = z.infer<typeof enableTwoFactorInput>;

/** The recovery codes, shown once. */
export const recoveryCodesDto = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesDto = z.infer<typeof recoveryCodesDto>;

/** POST /api/me/2fa/disable: a code (or a recovery code), or the account's password. */
export const passwordConfirmForm = z.object({ password: passwordInput }).strict();
export const disableTwoFactorInput = z.union([authCodeForm, passwordConfirmForm]);
export type DisableTwoFactorInput = z.infer<typeof disableTwoFactorInput>;

/**
 * POST /api/me/2fa/setup and POST /api/me/2fa/recovery-codes: the account's password, asked again before its second
 * factor changes (OWASP ASVS 6.2). An account without one (Google sign-in alone) has none to give: its session is
 * the proof, as for the other re-checked changes (me.service.ts requirePasswordIfAny).
 */
export const twoFactorReauthInput = z.object({ currentPassword: passwordInput.optional() }).strict();
export type TwoFactorReauthInput = z.infer<typeof twoFactorReauthInput>;
