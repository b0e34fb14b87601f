// The API tokens module's public surface: the service, the token policy (scopes, reach) and revoking a user's tokens.
export { revokeAllOfUser } from './api-tokens.repo';
export { isApiToken, requireTokenMayReach, requireTokenScope, tokenMayReach } from './api-tokens.policy';
export { ApiTokenService, type TokenAuthentication } from './api-tokens.service';
