import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { errorResponse } from '../../../domain/schemas/common';
import { samlAcsInput, ssoSettingsDto, updateSsoSettingsInput } from '../../../domain/schemas/sso';
import { actorOf, requireUser, typed } from '../../lib/http';
import { BINDING_COOKIE, BINDING_PATH } from '../oidc';
import { REQUEST_TTL_MS, SamlFlowError } from './saml.service';

/** The binding cookie lives from the start of a sign-in to the exchange of its code (a minute after the IdP answers). */
const BINDING_TTL_SECONDS = REQUEST_TTL_MS / 1000 + 60;

const redirectResponse = { 302: z.null().describe('Redirect') };
const seeOtherResponse = { 303: z.null().describe('Redirect to the web client') };

/** SAML 2.0 sign-in (issue 41): the SP metadata, the signed AuthnRequest, the assertion consumer service; the admin panel's settings. */
export function registerSaml(app: FastifyInstance): void {
  const { config, saml } = app.deps;
  const secure = config.publicUrl.startsWith('https://');
  const bindingCookie = (value: string, maxAge: number) =>
    [
      `${BINDING_COOKIE}=${value}`,
      `Path=${BINDING_PATH}`,
      `Max-Age=${maxAge}`,
      'HttpOnly',
      'SameSite=Lax',
      ...(secure ? ['Secure'] : []),
    ].join('; ');
  const r = typed(app);

  /** A failure goes back to the login page, which shows 'Authentication failed: {description}' (sealed, as Google's). */
  const toLogin = async (reply: FastifyReply, status: 302 | 303, error: string, description: string) => {
    const qs = new URLSearchParams({ error, error_description: await saml.sealDescription(description) });
    return reply.redirect(`/login?${qs.toString()}`, status);
  };

  r.get('/api/auth/saml/metadata', {
    config: { auth: 'public' },
    schema: { tags: ['auth'], produces: ['application/samlmetadata+xml'], response: { 200: z.string() } },
    handler: async (_req, reply) => reply.type('application/samlmetadata+xml').send(saml.metadata()),
  });

  r.get('/api/auth/saml/start', {
    config: { auth: 'public', rateLimit: 'auth' },
    schema: { tags: ['auth'], response: redirectResponse },
    handler: async (req, reply) => {
      try {
        const { url, binding } = await saml.begin();
        reply.header('set-cookie', bindingCookie(binding, BINDING_TTL_SECONDS));
        return reply.redirect(url, 302);
      } catch (error) {
        if (error instanceof SamlFlowError) return toLogin(reply, 302, error.error, error.description);
        req.log.error({ errorName: (error as Error)?.name }, 'saml start failed');
        return toLogin(reply, 302, 'server_error', 'Single sign-on failed. Please try again.');
      }
    },
  });

  // The IdP posts a form (HTTP-POST binding): that one route reads form bodies (encapsulated, no other route does).
  void app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    registerAcs(scope);
  });

  function registerAcs(scope: FastifyInstance) {
    typed(scope).post('/api/auth/saml/acs', {
      // The body is an assertion about a person: keep it out of the request log.
      logLevel: 'warn',
      config: { auth: 'public', rateLimit: 'auth' },
      schema: { tags: ['auth'], consumes: ['application/x-www-form-urlencoded'], body: samlAcsInput, response: seeOtherResponse },
      handler: async (req, reply) => {
        try {
          const { code, newBinding } = await saml.complete(req.body, req.headers['user-agent'] ?? null, req.ip);
          if (newBinding) reply.header('set-cookie', bindingCookie(newBinding, 120));
          // The same hand-off as Google sign-in: the web client redeems the code (POST /api/auth/google/exchange).
          return reply.redirect(`/#oidc_code=${encodeURIComponent(code)}`, 303);
        } catch (error) {
          if (error instanceof SamlFlowError) {
            req.log.warn({ samlError: error.error, detail: error.detail }, 'saml sign-in refused');
            return toLogin(reply, 303, error.error, error.description);
          }
          req.log.error({ errorName: (error as Error)?.name }, 'saml acs failed');
          return toLogin(reply, 303, 'server_error', 'Single sign-on failed. Please try again.');
        }
      },
    });
  }

  r.get('/api/admin/sso', {
    config: { auth: 'super_admin' },
    schema: { tags: ['admin'], response: { 200: ssoSettingsDto } },
    handler: async () => saml.settings(),
  });

  r.put('/api/admin/sso', {
    config: { auth: 'super_admin' },
    schema: { tags: ['admin'], body: updateSsoSettingsInput, response: { 200: ssoSettingsDto, 400: errorResponse } },
    handler: async (req) => saml.updateSettings(actorOf(req), requireUser(req).userId, req.body),
  });
}
