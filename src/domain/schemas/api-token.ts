import { z } from 'zod';
import { API_TOKEN_EXPIRY_DAYS, API_TOKEN_SCOPES, type EmailVerificationMode } from '../constants';
import { isoDateTime, uuid } from './common';

/** `perUserMax`: live (neither revoked nor expired) tokens per user; the text of too_many_api_tokens says the same. */
export const API_TOKEN_LIMITS = { nameMax: 80, perUserMax: 50 } as const;

/** The expiry choices of the create form and the API: days, or null for a token that never expires. */
export type ApiTokenExpiryDays = (typeof API_TOKEN_EXPIRY_DAYS)[number];

const EXPIRY_DAY_COUNTS = API_TOKEN_EXPIRY_DAYS.filter((days) => days !== null) as Exclude<ApiTokenExpiryDays, null>[];
const expiryDays = z.literal(EXPIRY_DAY_COUNTS, { error: 'Choose 30, 90 or 365 days, or never' }).nullable();

/** POST /api/me/api-tokens. No defaults for scope or expiry: a token's power is always chosen, never implied. */
export const createApiTokenInput = z
  .object({
    name: z
      .string({ error: 'Name is required' })
      .trim()
      .min(1, 'Name is required')
      .max(API_TOKEN_LIMITS.nameMax, `Name must be at most ${API_TOKEN_LIMITS.nameMax} characters`),
    expiresInDays: expiryDays,
    scope: z.enum(API_TOKEN_SCOPES, { error: 'Choose read-only or read and write' }),
  })
  .strict();
export type CreateApiTokenInput = z.infer<typeof createApiTokenInput>;

/** A token as listed: never its secret, only the first characters (`prefix`) to recognise it by. */
export const apiTokenDto = z.object({
  id: uuid,
  name: z.string(),
  prefix: z.string(),
  scope: z.enum(API_TOKEN_SCOPES),
  createdAt: isoDateTime,
  /** null: never expires. A past time: expired (listed until revoked, refused at once). */
  expiresAt: isoDateTime.nullable(),
  lastUsedAt: isoDateTime.nullable(),
});
export type ApiTokenDto = z.infer<typeof apiTokenDto>;

/**
 * With EMAIL_VERIFICATION=required, an account whose address is not verified makes no API token and no calendar feed
 * (issue 35, item 1: whoever registered someone else's address first must not hold credentials that outlive a reset).
 */
export const mustVerifyEmailFirst = (mode: EmailVerificationMode, user: { emailVerified: boolean }): boolean =>
  mode === 'required' && !user.emailVerified;

/** `verifyEmailFirst`: the caller may make no token until their address is verified (mustVerifyEmailFirst). */
export const apiTokenListDto = z.object({ tokens: z.array(apiTokenDto), verifyEmailFirst: z.boolean() });
export type ApiTokenListDto = z.infer<typeof apiTokenListDto>;

/** The answer to a creation: the token and, this once only, its secret (`cb_` + 32 random bytes in base64url). */
export const apiTokenCreatedDto = apiTokenDto.extend({ token: z.string() });
export type ApiTokenCreatedDto = z.infer<typeof apiTokenCreatedDto>;
