import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { sessionDto } from '../../../domain/schemas/auth';
import { errorResponse } from '../../../domain/schemas/common';
import {
  authProvidersDto,
  OIDC_CODE_PARAM,
  oidcCallbackQuery,
  oidcErrorDto,
  oidcErrorInput,
  oidcExchangeInput,
} from '../../../domain/schemas/oidc';
import { typed } from '../../lib/http';
// The browser's binding (see OidcService.begin), read back by the code exchange.
import { BINDING_COOKIE, BINDING_PATH, codeSealer } from './oidc.handoff';
import { OidcFlowError, OidcProvider } from './oidc.provider';
import { Sealer } from './oidc.seal';
import { BINDING_TTL_SECONDS, OidcService, STATE_TTL_SECONDS } from './oidc.service';

const COOKIE = 'crewboard_oidc';
const COOKIE_PATH = '/api/auth/google';

function readCookie(req: FastifyRequest, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
  }
  return undefined;
}

function cookie(name: string, path: string, value: string, maxAge: number, secure: boolean): string {
  return [
    `${name}=${value}`,
    `Path=${path}`,
    `Max-Age=${maxAge}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

const redirectResponse = { 302: z.null().describe('Redirect') };

/** Google (any OpenID Connect provider) sign-in: start, callback, and the one-time code exchange. */
export function registerOidc(app: FastifyInstance): void {
  const { config, database, auth, changes } = app.deps;
  const google = config.google;
  const provider = google ? new OidcProvider(google.issuer, google.clientId, google.clientSecret) : null;
  const service = new OidcService(
    database.db,
    changes,
    auth,
    provider,
    {
      state: new Sealer(config.authSecret, 'state'),
      code: codeSealer(config.authSecret),
      error: new Sealer(config.authSecret, 'error'),
    },
    `${config.publicUrl}${COOKIE_PATH}/callback`,
  );
  const secure = config.publicUrl.startsWith('https://');
  const stateCookie = (value: string, maxAge: number) => cookie(COOKIE, COOKIE_PATH, value, maxAge, secure);
  const bindingCookie = (value: string, maxAge: number) => cookie(BINDING_COOKIE, BINDING_PATH, value, maxAge, secure);
  const r = typed(app);

  /**
   * Every failure returns to the login page, which shows 'Authentication failed: {description}'. The
   * description is sealed: the page shows only what opens (POST /api/auth/google/error), never a
   * hand-made link's text.
   */
  const toLogin = async (reply: FastifyReply, error: string, description: string) => {
    const qs = new URLSearchParams({ error, error_description: await service.sealDescription(description) });
    return reply.redirect(`/login?${qs.toString()}`, 302);
  };

  r.get('/api/auth/providers', {
    config: { auth: 'public' },
    schema: { tags: ['auth'], response: { 200: authProvidersDto } },
    handler: async () => ({
      google: service.isConfigured,
      emailVerification: config.emailVerification,
      ldap: Boolean(config.ldap),
      localPasswords: config.localPasswords?.enabled ?? true,
      sso: await app.deps.saml.isConfigured(),
    }),
  });

  r.get('/api/auth/google/start', {
    config: { auth: 'public', rateLimit: 'auth' },
    schema: { tags: ['auth'], response: redirectResponse },
    handler: async (req, reply) => {
      try {
        const { url, sealedState, binding } = await service.begin();
        reply.header('set-cookie', [stateCookie(sealedState, STATE_TTL_SECONDS), bindingCookie(binding, BINDING_TTL_SECONDS)]);
        return reply.redirect(url, 302);
      } catch (error) {
        if (error instanceof OidcFlowError) return toLogin(reply, error.error, error.description);
        req.log.error({ errorName: (error as Error)?.name }, 'oidc start failed');
        return toLogin(reply, 'server_error', 'Google sign-in failed. Please try again.');
      }
    },
  });

  r.get('/api/auth/google/callback', {
    // The URL carries the provider's authorization code: keep it out of the request log.
    logLevel: 'warn',
    config: { auth: 'public', rateLimit: 'auth' },
    schema: { tags: ['auth'], querystring: oidcCallbackQuery, response: redirectResponse },
    handler: async (req, reply) => {
      reply.header('set-cookie', stateCookie('', 0));
      try {
        const code = await service.complete(req.query, readCookie(req, COOKIE), req.headers['user-agent'] ?? null, req.ip);
        return reply.redirect(`/#${OIDC_CODE_PARAM}=${encodeURIComponent(code)}`, 302);
      } catch (error) {
        if (error instanceof OidcFlowError) {
          req.log.warn({ oidcError: error.error }, 'oidc sign-in refused');
          return toLogin(reply, error.error, error.description);
        }
        // Never log the error object itself: it may carry claims or tokens.
        req.log.error({ errorName: (error as Error)?.name }, 'oidc callback failed');
        return toLogin(reply, 'server_error', 'Google sign-in failed. Please try again.');
      }
    },
  });

  r.post('/api/auth/google/exchange', {
    config: { auth: 'public', rateLimit: 'auth' },
    schema: { tags: ['auth'], body: oidcExchangeInput, response: { 200: sessionDto, 400: errorResponse } },
    handler: async (req, reply) => {
      const session = await service.exchange(req.body.code, readCookie(req, BINDING_COOKIE));
      reply.header('set-cookie', bindingCookie('', 0));
      return session;
    },
  });

  r.post('/api/auth/google/error', {
    config: { auth: 'public' },
    schema: { tags: ['auth'], body: oidcErrorInput, response: { 200: oidcErrorDto, 400: errorResponse } },
    handler: async (req) => ({ description: await service.openDescription(req.body.error_description) }),
  });
}
