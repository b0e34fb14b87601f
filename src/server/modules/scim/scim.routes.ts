import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SCIM_CONTENT_TYPE,
  SCIM_SCHEMAS,
  scimDocument,
  scimErrorResponse,
  scimGetQuery,
  scimGroupInput,
  scimGroupList,
  scimGroupResource,
  scimIdParams,
  scimListQuery,
  scimPatchInput,
  scimUserInput,
  scimUserList,
  scimUserResource,
} from '../../../domain/schemas/scim';
import { AppError } from '../../lib/errors';
import { typed } from '../../lib/http';
import { scimResourceTypes, scimSchemas, scimServiceProviderConfig } from './scim.discovery';
import { ScimError, scimErrorBody, scimNotFound } from './scim.errors';
import { ScimService } from './scim.service';
import { isScimToken, type ScimCaller, type ScimTokenService } from './scim-tokens.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The identity provider behind a SCIM token (on /scim/v2 routes only). */
    scim: ScimCaller | null;
  }
}

export const SCIM_PREFIX = '/scim/v2';

const tags = ['scim'];
/** SCIM Error messages (RFC 7644 §3.12), each described for the OpenAPI document. */
const scimError = (text: string) => scimErrorResponse.describe(`${text} (a SCIM Error message)`);
const errors = {
  400: scimError(
    'The request is invalid: `scimType` invalidFilter, invalidValue, invalidSyntax, invalidPath, noTarget or mutability',
  ),
  401: scimError('No SCIM token, or one that is unknown or revoked'),
  404: scimError('No such resource'),
  429: scimError('Too many failed token attempts from this address: wait for `Retry-After` seconds'),
};
const writeErrors = {
  ...errors,
  409: scimError('`scimType` uniqueness: another user has this userName, or another user or group this externalId'),
};

const caller = (req: FastifyRequest): ScimCaller => {
  if (!req.scim) throw new ScimError(401, 'A SCIM token is required');
  return req.scim;
};

/** Errors in RFC 7644 §3.12's shape, whatever raised them (validation, the rate limiter, the database). */
function sendError(reply: FastifyReply, status: number, detail: string, scimType?: ScimError['scimType']) {
  return reply
    .code(status)
    .type(SCIM_CONTENT_TYPE)
    .send(scimErrorBody(status, detail, scimType));
}

/**
 * /scim/v2 (issue 41, RFC 7643/7644): Users and Groups for an identity provider, authenticated by a SCIM token only
 * (its own hook: the app's bearer check skips `auth: 'scim'` routes, and no session or API token is accepted here).
 */
export function registerScimApi(app: FastifyInstance, tokens: ScimTokenService): void {
  const base = `${app.deps.config.publicUrl.replace(/\/+$/, '')}${SCIM_PREFIX}`;
  const service = new ScimService(app.deps.database.db, app.deps.changes, base);
  const { rateLimiter } = app.deps;

  app.register(
    async (scope) => {
      scope.decorateRequest('scim', null);
      // RFC 7644 §3.1: requests in application/scim+json (application/json is Fastify's own).
      scope.addContentTypeParser(SCIM_CONTENT_TYPE, { parseAs: 'string' }, (_req, body, done) => {
        try {
          done(null, body === '' ? undefined : JSON.parse(body as string));
        } catch {
          done(new ScimError(400, 'The body is not valid JSON', 'invalidSyntax'), undefined);
        }
      });
      scope.addHook('onRequest', async (req) => {
        const header = req.headers.authorization;
        const bearer = header?.startsWith('Bearer ') ? header.slice(7).trim() : null;
        // A session's JWT or a personal API token is never looked up here: only a SCIM token's shape is.
        if (!isScimToken(bearer)) throw new ScimError(401, 'A SCIM token is required');
        const found = await tokens.authenticate(bearer, req.ip, rateLimiter.apiToken(req.ip));
        if (!found) throw new ScimError(401, 'The SCIM token is invalid or revoked');
        req.scim = found;
      });
      scope.addHook('onSend', async (_req, reply, payload) => {
        reply.header('cache-control', 'no-store');
        return payload;
      });
      scope.setErrorHandler((error: FastifyError, req, reply) => {
        if (error instanceof ScimError) return sendError(reply, error.status, error.detail, error.scimType);
        if (hasZodFastifySchemaValidationErrors(error)) {
          const first = error.validation[0];
          const where = first?.instancePath ? `${first.instancePath.slice(1).replaceAll('/', '.')}: ` : '';
          return sendError(reply, 400, `${where}${first?.message ?? 'invalid request'}`, 'invalidValue');
        }
        if (error instanceof AppError) {
          if (error.headers) reply.headers(error.headers);
          return sendError(reply, error.status, error.message);
        }
        const status = error.statusCode ?? 500;
        if (status === 415) return sendError(reply, 415, 'Send application/scim+json or application/json');
        if (status >= 400 && status < 500) return sendError(reply, status, 'The request is invalid', 'invalidSyntax');
        // The app's own handler logs it and answers 503 for a database outage, 500 otherwise: in SCIM's shape here.
        req.log.error({ err: error }, 'scim: unhandled error');
        return sendError(reply, 500, 'Internal error');
      });
      scope.setNotFoundHandler((req, reply) => sendError(reply, 404, `No SCIM endpoint ${req.method} ${req.url.split('?')[0]}`));

      const r = typed(scope);
      const scim = { auth: 'scim' as const };
      const scimType = (reply: FastifyReply) => reply.type(SCIM_CONTENT_TYPE);

      // ---- discovery (RFC 7644 §4) ----
      r.get('/ServiceProviderConfig', {
        config: scim,
        schema: { tags, response: { 200: scimDocument, ...errors } },
        handler: async (_req, reply) => scimType(reply).send(scimServiceProviderConfig(base, `${base}/Schemas`)),
      });
      r.get('/Schemas', {
        config: scim,
        schema: { tags, response: { 200: scimDocument, ...errors } },
        handler: async (_req, reply) => {
          const all = scimSchemas(base);
          return scimType(reply).send(listOf(all));
        },
      });
      r.get('/Schemas/:id', {
        config: scim,
        schema: { tags, params: scimIdParams, response: { 200: scimDocument, ...errors } },
        handler: async (req, reply) => {
          const found = scimSchemas(base).find((s) => s.id === req.params.id);
          if (!found) throw scimNotFound('Resource', req.params.id);
          return scimType(reply).send(found);
        },
      });
      r.get('/ResourceTypes', {
        config: scim,
        schema: { tags, response: { 200: scimDocument, ...errors } },
        handler: async (_req, reply) => scimType(reply).send(listOf(scimResourceTypes(base))),
      });
      r.get('/ResourceTypes/:id', {
        config: scim,
        schema: { tags, params: scimIdParams, response: { 200: scimDocument, ...errors } },
        handler: async (req, reply) => {
          const found = scimResourceTypes(base).find((t) => t.id === req.params.id);
          if (!found) throw scimNotFound('Resource', req.params.id);
          return scimType(reply).send(found);
        },
      });

      // ---- Users ----
      r.get('/Users', {
        config: scim,
        schema: { tags, querystring: scimListQuery, response: { 200: scimUserList, ...errors } },
        handler: async (req, reply) => scimType(reply).send(await service.listUsers(req.query)),
      });
      r.get('/Users/:id', {
        config: scim,
        schema: { tags, params: scimIdParams, querystring: scimGetQuery, response: { 200: scimUserResource, ...errors } },
        handler: async (req, reply) => scimType(reply).send(await service.getUser(req.params.id)),
      });
      r.post('/Users', {
        config: scim,
        schema: { tags, body: scimUserInput, response: { 201: scimUserResource, ...writeErrors } },
        handler: async (req, reply) => {
          const created = await service.createUser(caller(req), req.body);
          return scimType(reply).code(201).header('location', created.meta.location).send(created);
        },
      });
      r.put('/Users/:id', {
        config: scim,
        schema: { tags, params: scimIdParams, body: scimUserInput, response: { 200: scimUserResource, ...writeErrors } },
        handler: async (req, reply) => scimType(reply).send(await service.replaceUser(caller(req), req.params.id, req.body)),
      });
      r.patch('/Users/:id', {
        config: scim,
        schema: { tags, params: scimIdParams, body: scimPatchInput, response: { 200: scimUserResource, ...writeErrors } },
        handler: async (req, reply) => scimType(reply).send(await service.patchUser(caller(req), req.params.id, req.body)),
      });
      r.delete('/Users/:id', {
        config: scim,
        schema: { tags, params: scimIdParams, response: { 204: z.null(), ...errors } },
        handler: async (req, reply) => {
          await service.deleteUser(caller(req), req.params.id);
          return reply.code(204).send(null);
        },
      });

      // ---- Groups ----
      r.get('/Groups', {
        config: scim,
        schema: { tags, querystring: scimListQuery, response: { 200: scimGroupList, ...errors } },
        handler: async (req, reply) => scimType(reply).send(await service.listGroups(req.query)),
      });
      r.get('/Groups/:id', {
        config: scim,
        schema: { tags, params: scimIdParams, querystring: scimGetQuery, response: { 200: scimGroupResource, ...errors } },
        handler: async (req, reply) => scimType(reply).send(await service.getGroup(req.params.id, req.query)),
      });
      r.post('/Groups', {
        config: scim,
        schema: { tags, body: scimGroupInput, response: { 201: scimGroupResource, ...writeErrors } },
        handler: async (req, reply) => {
          const created = await service.createGroup(caller(req), req.body);
          return scimType(reply).code(201).header('location', created.meta.location).send(created);
        },
      });
      r.put('/Groups/:id', {
        config: scim,
        schema: { tags, params: scimIdParams, body: scimGroupInput, response: { 200: scimGroupResource, ...writeErrors } },
        handler: async (req, reply) => scimType(reply).send(await service.replaceGroup(caller(req), req.params.id, req.body)),
      });
      r.patch('/Groups/:id', {
        config: scim,
        schema: { tags, params: scimIdParams, body: scimPatchInput, response: { 200: scimGroupResource, ...writeErrors } },
        handler: async (req, reply) => scimType(reply).send(await service.patchGroup(caller(req), req.params.id, req.body)),
      });
      r.delete('/Groups/:id', {
        config: scim,
        schema: { tags, params: scimIdParams, response: { 204: z.null(), ...errors } },
        handler: async (req, reply) => {
          await service.deleteGroup(caller(req), req.params.id);
          return reply.code(204).send(null);
        },
      });
    },
    { prefix: SCIM_PREFIX },
  );
}

function listOf<T>(resources: T[]) {
  return {
    schemas: [SCIM_SCHEMAS.listResponse],
    totalResults: resources.length,
    startIndex: 1,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}
