import { API_TOKEN_PREFIX, type ApiTokenScope } from '../../../domain/constants';
import { AppError } from '../../lib/errors';

/**
 * Where a personal API token may never go (issue 26): account, token and session management. The one list of it:
 * everything under these prefixes is closed to tokens (sign-in, sign-out, sign-up, emailed links, OIDC, sessions,
 * password, email, two-factor, account deletion, avatar, the calendar feed's secret link, the tokens themselves, and
 * the SCIM tokens of the admin panel: issue 41), so
 * that a route added there later is closed too until it is allowed below on purpose.
 */
const CLOSED_TO_TOKENS = ['/api/auth', '/api/me', '/api/admin/scim-tokens'] as const;

/** Routes inside those areas that a token may use: reading and editing one's name, time zone and notification choices. */
const OPEN_TO_TOKENS = ['/api/me/profile', '/api/me/notification-preferences'] as const;

/** Single routes elsewhere closed to tokens: a note socket's ticket is bound to a session, which a token does not have. */
const CLOSED_ROUTES = ['/api/notes/:id/socket-ticket'] as const;

const within = (url: string, prefix: string) => url === prefix || url.startsWith(`${prefix}/`);

/** True for a bearer that is a personal API token (by its prefix; a session's access token is a JWT). */
export const isApiToken = (bearer: string | null | undefined): bearer is string => Boolean(bearer?.startsWith(API_TOKEN_PREFIX));

/** Whether a token may call the route `routeUrl` (the route's pattern, e.g. `/api/me/sessions/:id`). */
export function tokenMayReach(routeUrl: string): boolean {
  if (OPEN_TO_TOKENS.some((open) => routeUrl === open)) return true;
  if (CLOSED_ROUTES.some((closed) => routeUrl === closed)) return false;
  return !CLOSED_TO_TOKENS.some((closed) => within(routeUrl, closed));
}

/** 403 token_not_allowed on an account, token or session management route. */
export function requireTokenMayReach(routeUrl: string): void {
  if (!tokenMayReach(routeUrl)) throw new AppError('token_not_allowed');
}

/** Methods that change nothing: all a read-only token may use. */
const READ_METHODS = new Set(['GET', 'HEAD']);

/** 403 token_scope_read_only for a read-only token on anything but GET and HEAD. */
export function requireTokenScope(scope: ApiTokenScope, method: string): void {
  if (scope === 'read' && !READ_METHODS.has(method.toUpperCase())) throw new AppError('token_scope_read_only');
}
