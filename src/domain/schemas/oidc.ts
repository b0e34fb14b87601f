import { z } from 'zod';
import { EMAIL_VERIFICATION_MODES } from '../constants';

/**
 * GET /api/auth/providers: what the sign-in pages need to know of this server: which external sign-in providers it
 * offers, and whether addresses must be verified (the app's banner shows only then).
 */
export const authProvidersDto = z.object({
  google: z.boolean(),
  emailVerification: z.enum(EMAIL_VERIFICATION_MODES),
  /** Directory sign-in is on (LDAP_URL): the sign-in form's first field takes a directory username too (issue 41). */
  ldap: z.boolean(),
  /** Local passwords are on (LOCAL_PASSWORDS); off, only the break-glass account signs in with one. */
  localPasswords: z.boolean(),
  /** SAML single sign-on is configured: the sign-in page shows 'Sign in with SSO' (issue 41). */
  sso: z.boolean(),
});
export type AuthProvidersDto = z.infer<typeof authProvidersDto>;

/** A query value from the provider; anything malformed counts as absent (the handler redirects). */
const loose = z.string().max(4096).optional().catch(undefined);

/** GET /api/auth/google/callback: what the provider sends back (extra keys such as scope are ignored). */
export const oidcCallbackQuery = z.object({
  code: loose,
  state: loose,
  error: loose,
  error_description: loose,
});
export type OidcCallbackQuery = z.infer<typeof oidcCallbackQuery>;

/** POST /api/auth/google/exchange: the one-time code from the redirect to the site root. */
export const oidcExchangeInput = z.object({ code: z.string().min(1).max(4096) }).strict();
export type OidcExchangeInput = z.infer<typeof oidcExchangeInput>;

/** POST /api/auth/google/error: the sealed error_description our callback put on /login. */
export const oidcErrorInput = z.object({ error_description: z.string().min(1).max(4096) }).strict();
export type OidcErrorInput = z.infer<typeof oidcErrorInput>;

/** The description it seals, for the login page's 'Authentication failed: {description}'. */
export const oidcErrorDto = z.object({ description: z.string() });
export type OidcErrorDto = z.infer<typeof oidcErrorDto>;

// Lives in constants so the sign-in page does not pull zod into the start-up bundle.
export { OIDC_CODE_PARAM } from '../constants';
