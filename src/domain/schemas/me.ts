/** The signed-in person's own account (Settings): profile, email, password, deletion, notification preferences. */
import { z } from 'zod';
import { LIMITS, NOTIFICATION_PREFERENCE_KINDS, type NotificationPreferenceKind } from '../constants';
import { ERROR_MESSAGES } from '../errors';
import { emailInput } from './common';
import { linkToken, passwordInput, signupInput, userDto } from './auth';
import { timeZoneInput } from './time-zone';

/** PATCH /api/me/profile: what is given changes; a null time zone goes back to the default (UTC). */
export const updateProfileInput = z
  .object({ fullName: signupInput.shape.fullName, timeZone: timeZoneInput.nullable() })
  .partial()
  .strict();
export type UpdateProfileInput = z.infer<typeof updateProfileInput>;

/** GET and PATCH /api/me/profile. `hasPassword`: false for an account made by a Google sign-in alone. */
export const profileDto = z.object({ user: userDto, timeZone: z.string().nullable(), hasPassword: z.boolean() });
export type ProfileDto = z.infer<typeof profileDto>;

/**
 * The current password, asked again before a change that could hand the account to someone else (OWASP ASVS
 * 3.7.1). Optional in the body: an account without a password (Google sign-in alone) has none to give.
 */
const reauthentication = { currentPassword: passwordInput.optional() };

/** POST /api/me/email: a confirmation link goes to the new address. */
export const changeEmailInput = z.object({ email: emailInput, ...reauthentication }).strict();
export type ChangeEmailInput = z.infer<typeof changeEmailInput>;

/** POST /api/auth/confirm-email-change: the token of that link. */
export const confirmEmailChangeInput = z.object({ token: linkToken }).strict();
export type ConfirmEmailChangeInput = z.infer<typeof confirmEmailChangeInput>;

/** POST /api/me/delete: the account's email typed out as the confirmation. */
export const deleteAccountInput = z
  .object({ email: z.string().max(LIMITS.emailMax).min(1, ERROR_MESSAGES.delete_confirmation_mismatch), ...reauthentication })
  .strict();
export type DeleteAccountInput = z.infer<typeof deleteAccountInput>;

/** True when the typed confirmation names this address (case and surrounding spaces aside, as emails are compared). */
export const confirmsEmail = (typed: string, email: string): boolean => typed.trim().toLowerCase() === email.toLowerCase();

const channels = z.object({ inApp: z.boolean(), email: z.boolean() }).strict();
export type NotificationChannels = z.infer<typeof channels>;

/** GET and PUT /api/me/notification-preferences: both channels of every kind, and the daily digest. */
export const notificationPreferencesDto = z
  .object({
    preferences: z
      .object(
        Object.fromEntries(NOTIFICATION_PREFERENCE_KINDS.map((kind) => [kind, channels])) as Record<
          NotificationPreferenceKind,
          typeof channels
        >,
      )
      .strict(),
    digestEnabled: z.boolean(),
  })
  .strict();
export type NotificationPreferencesDto = z.infer<typeof notificationPreferencesDto>;
