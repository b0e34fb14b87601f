import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import { createScimTokenInput, scimTokenCreatedDto, scimTokenListDto } from '../../../domain/schemas/scim';
import { actorOf, typed } from '../../lib/http';
import type { ScimTokenService } from './scim-tokens.service';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };

/**
 * /api/admin/scim-tokens (issue 41): super admins only (the app's hook answers 401/403); closed to personal API tokens
 * (api-tokens.policy.ts): a credential is made or revoked from a signed-in session only.
 */
export function registerScimTokens(app: FastifyInstance, service: ScimTokenService): void {
  const r = typed(app);
  const tags = ['admin'];

  r.get('/api/admin/scim-tokens', {
    config: { auth: 'super_admin' },
    schema: { tags, response: { 200: scimTokenListDto, 401: errorResponse, 403: errorResponse } },
    handler: async () => service.list(),
  });

  r.post('/api/admin/scim-tokens', {
    config: { auth: 'super_admin' },
    schema: { tags, body: createScimTokenInput, response: { 201: scimTokenCreatedDto, ...errors } },
    handler: async (req, reply) => reply.code(201).send(await service.create(actorOf(req), req.body)),
  });

  r.delete('/api/admin/scim-tokens/:id', {
    config: { auth: 'super_admin' },
    schema: { tags, params: idParams, response: { 204: z.null(), ...errors } },
    handler: async (req, reply) => {
      await service.revoke(actorOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  });
}
