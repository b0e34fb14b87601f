import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { sessionDto } from '../../../domain/schemas/auth';
import { errorResponse } from '../../../domain/schemas/common';
import { authProvidersDto, OIDC_CODE_PARAM, oidcCallbackQuery, oidcExchangeInput } from '../../../domain/schemas/oidc';
import { typed } from '../../lib/http';
import { OidcFlowError, OidcProvider } from './oidc.provider';
import { Sealer } from './oidc.seal';
import { OidcService, STATE_TTL_SECONDS } from './oidc.service';

const COOKIE = 'crewboard_oidc';
const COOKIE_PATH = '/api/auth/google';

function readCookie(req: FastifyRequest, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
  }
  return undefined;
}

function stateCookie(value: string, maxAge: number, secure: boolean): string {
  return [`${COOKIE}=${value}`, `Path=${COOKIE_PATH}`, `Max-Age=${maxAge}`, 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])].join('; ');
}

/** Every failure returns to the login page, which shows 'Authentication failed: {description}'. */
function toLogin(reply: FastifyReply, error: string, description: string) {
  const qs = new URLSearchParams({ error, error_description: description });
  return reply.header('cache-control', 'no-store').redirect(`/login?${qs.toString()}`, 302);
}

const redirectResponse = { 302: z.null().describe('Redirect') };

/** Google (any OpenID Connect provider) sign-in: start, callback, and the one-time code exchange. */
export function registerOidc(app: FastifyInstance): void {
  const { config, database, auth } = app.deps;
  const google = config.google;
  const provider = google ? new OidcProvider(google.issuer, google.clientId, google.clientSecret) : null;
  const service = new OidcService(
    database.db,
    auth,
    provider,
    new Sealer(config.authSecret, 'state'),
    new Sealer(config.authSecret, 'code'),
    `${config.publicUrl}${COOKIE_PATH}/callback`,
  );
  const secure = config.publicUrl.startsWith('https://');
  const r = typed(app);

  r.get('/api/auth/providers', {
    config: { auth: 'public' },
    schema: { tags: ['auth'], response: { 200: authProvidersDto } },
    handler: async () => ({ google: service.isConfigured }),
  });

  r.get('/api/auth/google/start', {
    config: { auth: 'public', rateLimit: 'auth' },
    schema: { tags: ['auth'], response: redirectResponse },
    handler: async (req, reply) => {
      try {
        const { url, sealedState } = await service.begin();
        reply.header('set-cookie', stateCookie(sealedState, STATE_TTL_SECONDS, secure));
        return reply.header('cache-control', 'no-store').redirect(url, 302);
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
      reply.header('set-cookie', stateCookie('', 0, secure));
      try {
        const code = await service.complete(req.query, readCookie(req, COOKIE), req.headers['user-agent'] ?? null);
        return reply.header('cache-control', 'no-store').redirect(`/#${OIDC_CODE_PARAM}=${encodeURIComponent(code)}`, 302);
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
    handler: async (req) => service.exchange(req.body.code),
  });
}
