import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import {
  createCustomFieldInput,
  customFieldDto,
  customFieldListDto,
  customFieldUsageDto,
  updateCustomFieldInput,
} from '../../../domain/schemas/custom-field';
import { actorOf, requireUser, typed } from '../../lib/http';
import { CustomFieldsService } from './custom-fields.service';

const errors = { 400: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };

/**
 * A team's custom fields (issue 38, decision 0026): read by its members, defined by its owner and admins. A field is
 * addressed by its own id once it exists (`/api/fields/:id`), as a status is.
 */
export function registerCustomFields(app: FastifyInstance): void {
  const service = new CustomFieldsService(app.deps.database.db, app.deps.changes);
  const r = typed(app);
  const tags = ['fields'];

  r.get('/api/fields', {
    config: { auth: 'user' },
    schema: { tags, response: { 200: customFieldListDto } },
    handler: async (req) => service.listMine(requireUser(req).userId),
  });

  r.get('/api/teams/:id/fields', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, response: { 200: customFieldListDto, 400: errorResponse, 404: errorResponse } },
    handler: async (req) => service.listTeam(requireUser(req).userId, req.params.id),
  });

  r.post('/api/teams/:id/fields', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, body: createCustomFieldInput, response: { 201: customFieldDto, ...errors } },
    handler: async (req, reply) => reply.code(201).send(await service.create(actorOf(req), req.params.id, req.body)),
  });

  r.patch('/api/fields/:id', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, body: updateCustomFieldInput, response: { 200: customFieldDto, ...errors } },
    handler: async (req) => service.update(actorOf(req), req.params.id, req.body),
  });

  r.delete('/api/fields/:id', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, response: { 204: z.null(), 400: errorResponse, 403: errorResponse, 404: errorResponse } },
    handler: async (req, reply) => {
      await service.remove(actorOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  });

  r.get('/api/fields/:id/usage', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, response: { 200: customFieldUsageDto, 400: errorResponse, 404: errorResponse } },
    handler: async (req) => service.usage(requireUser(req).userId, req.params.id),
  });
}
