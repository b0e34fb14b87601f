import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { PersonActor } from '../../domain/changes';
import type { ApiTokenScope, SystemRole } from '../../domain/constants';
import type { UserRow } from '../db/schema';
import { AppError } from './errors';

/**
 * Who may call a route. Every /api route must say it (checked at start-up). `scim`: the /scim/v2 routes, which take a
 * SCIM token only and authenticate it themselves (modules/scim); no session or personal API token reaches them.
 */
export type RouteAuth = 'public' | 'user' | 'super_admin' | 'scim';

export interface AuthContext {
  userId: string;
  /** The session of a signed-in caller; '' for a personal API token (it has none). */
  sessionId: string;
  user: UserRow;
  role: SystemRole;
  /** Set when the caller authenticated with a personal API token (issue 26) rather than a session. */
  apiToken?: { id: string; scope: ApiTokenScope };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/** The caller as the actor of a change: the person, and the API token when they came with one (issue 34). */
export function actorOf(req: FastifyRequest): PersonActor {
  const { user, apiToken } = requireUser(req);
  return apiToken
    ? { kind: 'token', userId: user.id, email: user.email, ip: req.ip, tokenId: apiToken.id }
    : { kind: 'user', userId: user.id, email: user.email, ip: req.ip };
}

/** The caller, or 401. */
export function requireUser(req: FastifyRequest): AuthContext {
  if (!req.auth) throw new AppError('unauthenticated');
  return req.auth;
}

export const typed = (app: FastifyInstance) => app.withTypeProvider<ZodTypeProvider>();
