import { z } from 'zod';

/**
 * SAML single sign-on (issue 41, decision 0031): the one identity provider a super admin sets in the admin panel
 * ('Single sign-on'), and what the IdP posts back to the assertion consumer service.
 */

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();

/** PUT /api/admin/sso: metadata (a URL or the XML itself), or entity ID + SSO URL + certificate; and the two switches. */
export const updateSsoSettingsInput = z
  .object({
    enabled: z.boolean(),
    idpInitiated: z.boolean(),
    idpMetadataUrl: optionalText(2048).refine((v) => !v || /^https?:\/\//i.test(v), 'Enter an http:// or https:// URL'),
    idpMetadataXml: optionalText(200_000),
    idpEntityId: optionalText(1024),
    idpSsoUrl: optionalText(2048).refine((v) => !v || /^https?:\/\//i.test(v), 'Enter an http:// or https:// URL'),
    idpCert: optionalText(20_000),
  })
  .strict();
export type UpdateSsoSettingsInput = z.infer<typeof updateSsoSettingsInput>;

/**
 * GET/PUT /api/admin/sso. `source` says where the identity provider comes from: the environment
 * (SAML_IDP_METADATA_URL / SAML_IDP_METADATA, which override the panel), the panel, or nowhere yet. `configured` is
 * true when sign-in with SSO is offered. The SP's URLs are what the IdP needs; the SP's private key is never sent.
 */
export const ssoSettingsDto = z.object({
  enabled: z.boolean(),
  idpInitiated: z.boolean(),
  idpMetadataUrl: z.string().nullable(),
  idpMetadataXml: z.string().nullable(),
  idpEntityId: z.string().nullable(),
  idpSsoUrl: z.string().nullable(),
  idpCert: z.string().nullable(),
  source: z.enum(['environment', 'panel', 'none']),
  configured: z.boolean(),
  /** Why the settings do not work yet (metadata that cannot be read…), else null. */
  problem: z.string().nullable(),
  sp: z.object({ entityId: z.string(), acsUrl: z.string(), metadataUrl: z.string() }),
});
export type SsoSettingsDto = z.infer<typeof ssoSettingsDto>;

/** POST /api/auth/saml/acs (HTTP-POST binding): the IdP's form fields. */
export const samlAcsInput = z.object({
  SAMLResponse: z.string().min(1).max(1_000_000),
  RelayState: z.string().max(4096).optional(),
});
export type SamlAcsInput = z.infer<typeof samlAcsInput>;
