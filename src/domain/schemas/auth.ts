import { z } from 'zod';
import { LIMITS, SYSTEM_ROLES } from '../constants';
import { MSG } from '../messages';
import { emailInput, uuid } from './common';

/** A password as the server takes it: present and at most 128 characters (a form adds its minimum). */
export const passwordInput = z
  .string({ error: MSG.passwordRequired })
  .min(1, MSG.passwordRequired)
  .max(LIMITS.passwordMax, MSG.passwordTooLong);

/** A new password (sign-up page, reset, change): the /signup page's rules, 8 to 128 characters (the server also refuses common ones). */
export const newPasswordInput = passwordInput.min(LIMITS.signupPasswordMin, MSG.passwordMin8);

export const signupInput = z
  .object({
    email: emailInput,
    password: passwordInput.min(LIMITS.loginPasswordMin, MSG.passwordMin6),
    fullName: z
      .string({ error: MSG.fullNameRequired })
      .trim()
      .min(1, MSG.fullNameRequired)
      .min(LIMITS.fullNameMin, MSG.fullNameMin)
      .max(LIMITS.fullNameMax),
  })
  .strict();
export type SignupInput = z.infer<typeof signupInput>;

export const passwordGrantInput = z.object({ email: emailInput, password: passwordInput }).strict();
export type PasswordGrantInput = z.infer<typeof passwordGrantInput>;

/**
 * The password grant with directory sign-in on (LDAP_URL, issue 41): `email` may hold a directory username instead
 * (an address is lower-cased as in passwordGrantInput; a username is kept as given, trimmed).
 */
export const directoryPasswordGrantInput = z
  .object({
    email: z
      .string({ error: 'Email or username is required' })
      .trim()
      .min(1, 'Email or username is required')
      .max(LIMITS.emailMax)
      .transform((s) => (s.includes('@') ? s.toLowerCase() : s)),
    password: passwordInput,
  })
  .strict();

export const refreshGrantInput = z.object({ refresh_token: z.string().min(1).max(200) }).strict();
export type RefreshGrantInput = z.infer<typeof refreshGrantInput>;

export const tokenQuery = z.object({ grant_type: z.enum(['password', 'refresh_token', 'mfa']) });

/** Client-side user (spec §3). */
export const userDto = z.object({
  id: uuid,
  email: z.string(),
  fullName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.enum(SYSTEM_ROLES),
  avatar: z.string().nullable(),
  createdAt: z.string(),
  isActive: z.boolean(),
  /** The address was proven (an emailed link followed, or vouched for by the Google/OIDC issuer). */
  emailVerified: z.boolean(),
});
export type UserDto = z.infer<typeof userDto>;

/** Auth session (spec §3). */
export const sessionDto = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number().int(),
  expires_at: z.number().int(),
  token_type: z.literal('bearer'),
  user: userDto,
});
export type SessionDto = z.infer<typeof sessionDto>;

export const signupResponse = z.object({ user: userDto });

/** The random token of an emailed link (verification, password reset): 43 base64url characters as issued. */
export const linkToken = z.string().min(1).max(200);

/** POST /api/auth/forgot-password. */
export const forgotPasswordInput = z.object({ email: emailInput }).strict();
export type ForgotPasswordInput = z.infer<typeof forgotPasswordInput>;

/** POST /api/auth/reset-password: the new password follows the /signup page's rules (8 to 128 characters, not common). */
export const resetPasswordInput = z.object({ token: linkToken, password: newPasswordInput }).strict();
export type ResetPasswordInput = z.infer<typeof resetPasswordInput>;

/**
 * POST /api/me/password (Settings → Account): the current password, and a new one by the same rules. `revokeTokens`
 * (default true, the form's box ticked): every personal API token and the calendar feed's link are revoked too.
 */
export const changePasswordInput = z
  .object({ currentPassword: passwordInput, password: newPasswordInput, revokeTokens: z.boolean().default(true) })
  .strict();
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

/** POST /api/auth/verify-email. */
export const verifyEmailInput = z.object({ token: linkToken }).strict();
export type VerifyEmailInput = z.infer<typeof verifyEmailInput>;

/** A request taken for delivery by mail (202): the same answer whatever became of it. */
export const mailAcceptedResponse = z.object({ message: z.string() });
export type MailAcceptedResponse = z.infer<typeof mailAcceptedResponse>;

export const healthResponse = z.object({
  status: z.literal('ok'),
  /** package.json's version of the running server. */
  version: z.string(),
  /** The number of database migrations applied. */
  schemaVersion: z.number().int().nonnegative(),
});
export const setRoleInput = z.object({ email: emailInput, role: z.enum(SYSTEM_ROLES) }).strict();
