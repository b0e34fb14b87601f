import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  apiTokenCreatedDto,
  apiTokenListDto,
  createApiTokenInput,
  mustVerifyEmailFirst,
} from '../../../domain/schemas/api-token';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import { AppError } from '../../lib/errors';
import { actorOf, requireUser, typed } from '../../lib/http';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };

/**
 * /api/me/api-tokens (issue 26): the caller's personal API tokens. Closed to tokens themselves (api-tokens.policy.ts):
 * only a signed-in session makes or revokes one.
 */
export function registerApiTokens(app: FastifyInstance): void {
  const r = typed(app);
  const service = app.deps.apiTokens;
  const tags = ['api-tokens'];

  r.get('/api/me/api-tokens', {
    config: { auth: 'user' },
    schema: { tags, summary: 'List your API tokens', response: { 200: apiTokenListDto, 401: errorResponse, 403: errorResponse } },
    handler: async (req) => {
      const { userId, user } = requireUser(req);
      return { ...(await service.list(userId)), verifyEmailFirst: mustVerifyEmailFirst(app.deps.config.emailVerification, user) };
    },
  });

  r.post('/api/me/api-tokens', {
    config: { auth: 'user' },
    schema: {
      tags,
      summary: 'Create an API token (its secret is in this answer only)',
      body: createApiTokenInput,
      response: { 201: apiTokenCreatedDto, ...errors },
    },
    handler: async (req, reply) => {
      const { user } = requireUser(req);
      // Unverified under EMAIL_VERIFICATION=required: no credential that would outlive the owner's reset (issue 35).
      if (mustVerifyEmailFirst(app.deps.config.emailVerification, user)) throw new AppError('credentials_email_unverified');
      const created = await service.create(actorOf(req), req.body);
      // The secret is in this answer: never kept by a browser's or a proxy's cache.
      return reply.code(201).send(created);
    },
  });

  r.delete('/api/me/api-tokens/:id', {
    config: { auth: 'user' },
    schema: { tags, summary: 'Revoke an API token', params: idParams, response: { 204: z.null(), ...errors } },
    handler: async (req, reply) => {
      await service.revoke(actorOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  });
}
