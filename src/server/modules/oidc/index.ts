// The OIDC module's public surface: its service, and the sealer other modules use to keep secrets at rest.
export { Sealer } from './oidc.seal';
export { BINDING_COOKIE, BINDING_PATH, codeSealer, sealSignInCode } from './oidc.handoff';
export { randomToken, sha256 } from './oidc.seal';
export { OidcService } from './oidc.service';
// Linked sign-in identities (issuer + subject → account), which directory sign-in stores too (issuer `ldap:<url>`).
export { createIdentity, getUserByIdentity } from './oidc.repo';
