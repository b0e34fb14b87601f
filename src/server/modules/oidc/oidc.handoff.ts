import { Sealer } from './oidc.seal';

/**
 * The hand-off of a session from an external sign-in to the web client (decision 0007), shared by Google sign-in and
 * SAML (issue 41): the sign-in ends on `/#oidc_code=<code>`, a one-time code sealed for 60 s carrying the session's
 * first refresh token and the digest of the browser's binding; the client redeems it with POST
 * /api/auth/google/exchange, which only the browser holding the binding cookie can do.
 */

/** The browser's binding cookie: set when a sign-in starts, read back by the code exchange. */
export const BINDING_COOKIE = 'crewboard_oidc_bind';
export const BINDING_PATH = '/api/auth';
/** How long the one-time code handed to the SPA stays valid. */
export const CODE_TTL_SECONDS = 60;

/** The sealer of one-time codes (one key per purpose: a state or an error can never pass as a code). */
export const codeSealer = (authSecret: string) => new Sealer(authSecret, 'code');

/** The one-time code for a session's first refresh token, redeemable only by the browser whose binding has this digest. */
export const sealSignInCode = (sealer: Sealer, refreshToken: string, bindingDigest: unknown) =>
  sealer.seal({ r: refreshToken, b: bindingDigest }, CODE_TTL_SECONDS);
