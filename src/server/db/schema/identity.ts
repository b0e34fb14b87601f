/**
 * Single sign-on and provisioning (issue 41, decision 0031): the SAML identity provider a super admin configured, the
 * request and assertion IDs SAML must remember (shared by every instance), and the SCIM tokens.
 */
import { boolean, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, requiredRef, timestamptz, updatedAt } from './columns';
import { users } from './users';

/**
 * The one SAML identity provider set in the admin panel ('Single sign-on'); `SAML_IDP_METADATA_URL` or
 * `SAML_IDP_METADATA` override it. One row at most (`id` is always 'saml').
 */
export const ssoSettings = pgTable('sso_settings', {
  id: text('id').primaryKey().default('saml'),
  enabled: boolean('enabled').notNull().default(false),
  /** Metadata as a URL or as the XML itself; else the three fields below. */
  idpMetadataUrl: text('idp_metadata_url'),
  idpMetadataXml: text('idp_metadata_xml'),
  idpEntityId: text('idp_entity_id'),
  idpSsoUrl: text('idp_sso_url'),
  /** The IdP's signing certificate (PEM or bare base64). */
  idpCert: text('idp_cert'),
  /** Accept an unsolicited response (IdP-initiated sign-in); off unless turned on. */
  idpInitiated: boolean('idp_initiated').notNull().default(false),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: updatedAt(),
});

/** The IDs of SAML requests Crewboard sent and not yet answered (InResponseTo), until they expire. */
export const samlRequestIds = pgTable(
  'saml_request_ids',
  {
    id: text('id').primaryKey(),
    value: text('value').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('saml_request_ids_created_idx').on(t.createdAt)],
);

/** The IDs of the SAML assertions accepted, until their NotOnOrAfter: a replayed assertion is refused (one row, one use). */
export const samlAssertionIds = pgTable(
  'saml_assertion_ids',
  {
    id: text('id').primaryKey(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [index('saml_assertion_ids_expires_idx').on(t.expiresAt)],
);

/** SCIM bearer tokens (`POST /api/admin/scim-tokens`): only the SHA-256 of the token is stored. */
export const scimTokens = pgTable(
  'scim_tokens',
  {
    id: id(),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    prefix: text('prefix').notNull(),
    /** The super admin who created it: a team a new SCIM group creates is theirs. */
    createdBy: requiredRef('created_by', () => users.id, 'cascade'),
    createdAt: createdAt(),
    lastUsedAt: timestamptz('last_used_at'),
    revokedAt: timestamptz('revoked_at'),
  },
  (t) => [uniqueIndex('scim_tokens_hash_key').on(t.tokenHash), index('scim_tokens_created_by_idx').on(t.createdBy)],
);
