// The OIDC module's public surface: its service, and the sealer other modules use to keep secrets at rest.
export { Sealer } from './oidc.seal';
export { OidcService } from './oidc.service';
