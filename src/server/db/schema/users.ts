/** A person and every way they sign in: the profile, password, external identities, sessions and their refresh
 * tokens, emailed one-time links, two-factor recovery codes, personal API tokens. */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { API_TOKEN_SCOPES, SIGN_IN_METHODS, SYSTEM_ROLES, USER_TOKEN_PURPOSES } from '../../../domain/constants';
import { createdAt, id, oneOf, requiredRef, textOf, timestamptz, updatedAt } from './columns';

/** Profiles (spec §3 "users table"). Emails are stored lower-cased. */
export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    fullName: text('full_name').notNull(),
    avatarUrl: text('avatar_url'),
    role: textOf('role', SYSTEM_ROLES).notNull().default('team_member'),
    isActive: boolean('is_active').notNull().default(true),
    emailVerified: boolean('email_verified').notNull().default(false),
    /** IANA time zone (the daily digest goes out at 08:00 there); null: UTC. */
    timeZone: text('time_zone'),
    /** The TOTP secret (base32), sealed with the server's key; set while two-factor sign-in is being set up or on. */
    totpSecret: text('totp_secret'),
    /** When two-factor sign-in was turned on; null while off. */
    totpEnabledAt: timestamptz('totp_enabled_at'),
    digestEnabled: boolean('digest_enabled').notNull().default(true),
    lastSeenAt: timestamptz('last_seen_at'),
    /** The identity provider's `externalId` for a person provisioned by SCIM (issue 41); null otherwise. */
    scimExternalId: text('scim_external_id'),
    /**
     * When an identity provider deleted the person by SCIM (`DELETE /scim/v2/Users/:id`): the account stays,
     * deactivated, but is no SCIM resource any more (404, left out of lists); null otherwise.
     */
    scimDeletedAt: timestamptz('scim_deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    // One person per identity provider externalId (RFC 7643 §3.1): a second is SCIM's 409 uniqueness.
    uniqueIndex('users_scim_external_id_key')
      .on(t.scimExternalId)
      .where(sql`${t.scimExternalId} is not null`),
    check('users_role_check', oneOf(t.role, SYSTEM_ROLES)),
    check('users_email_lower_check', sql`${t.email} = lower(${t.email})`),
  ],
);

export type UserRow = typeof users.$inferSelect;

export const passwordCredentials = pgTable('password_credentials', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  passwordHash: text('password_hash').notNull(),
  updatedAt: updatedAt(),
});

/**
 * External identities, keyed on issuer + subject: OpenID Connect (the issuer URL), LDAP (`ldap:` + the directory URL;
 * the subject is the entry's DN) and SAML (`saml:` + the IdP's entity ID; the subject is the NameID).
 */
export const oauthIdentities = pgTable(
  'oauth_identities',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: requiredRef('user_id', () => users.id, 'cascade'),
    email: text('email'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] }), index('oauth_identities_user_idx').on(t.userId)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: requiredRef('user_id', () => users.id, 'cascade'),
    createdAt: createdAt(),
    refreshedAt: timestamptz('refreshed_at'),
    revokedAt: timestamptz('revoked_at'),
    userAgent: text('user_agent'),
    /** The client's address when the session started (Settings → Security). */
    ip: text('ip'),
    /** How the person signed in (a team that requires single sign-on admits only `saml`). */
    method: textOf('method', SIGN_IN_METHODS).notNull().default('password'),
  },
  (t) => [index('sessions_user_idx').on(t.userId), check('sessions_method_check', oneOf(t.method, SIGN_IN_METHODS))],
);

/** Refresh tokens, stored only as SHA-256 hashes; single use, rotated on every refresh. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sessionId: requiredRef('session_id', () => sessions.id, 'cascade'),
    tokenHash: text('token_hash').notNull(),
    parentId: bigint('parent_id', { mode: 'number' }),
    usedAt: timestamptz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash), index('refresh_tokens_session_idx').on(t.sessionId)],
);

/** One-time emailed links (verification, password reset, email change): stored only as SHA-256 hashes, single use, expiring. */
export const userTokens = pgTable(
  'user_tokens',
  {
    id: id(),
    userId: requiredRef('user_id', () => users.id, 'cascade'),
    purpose: textOf('purpose', USER_TOKEN_PURPOSES).notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The address the link was sent to (for an email change, the new address). */
    email: text('email').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
  },
  (t) => [
    uniqueIndex('user_tokens_hash_key').on(t.tokenHash),
    index('user_tokens_user_idx').on(t.userId, t.purpose),
    check('user_tokens_purpose_check', oneOf(t.purpose, USER_TOKEN_PURPOSES)),
  ],
);

/** Two-factor recovery codes: ten per setup, each stored as a SHA-256 hash and usable once. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: id(),
    userId: requiredRef('user_id', () => users.id, 'cascade'),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamptz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/**
 * Personal API tokens (issue 26): `Authorization: Bearer cb_…` acts with the owner's rights within its scope. Only a
 * keyed hash (HMAC-SHA256 with the server's secret) is stored: fast to check on every request, useless if the table leaks
 * without the secret. `prefix` (the first characters) lets a person tell their tokens apart.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: id(),
    userId: requiredRef('user_id', () => users.id, 'cascade'),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    prefix: text('prefix').notNull(),
    scope: textOf('scope', API_TOKEN_SCOPES).notNull(),
    createdAt: createdAt(),
    /** null: never expires. */
    expiresAt: timestamptz('expires_at'),
    lastUsedAt: timestamptz('last_used_at'),
    revokedAt: timestamptz('revoked_at'),
  },
  (t) => [
    uniqueIndex('api_tokens_hash_key').on(t.tokenHash),
    index('api_tokens_user_idx').on(t.userId),
    check('api_tokens_scope_check', oneOf(t.scope, API_TOKEN_SCOPES)),
  ],
);
