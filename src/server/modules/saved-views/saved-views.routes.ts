import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import { createSavedViewInput, savedViewDto, savedViewListDto, updateSavedViewInput } from '../../../domain/schemas/saved-view';
import { requireUser, typed } from '../../lib/http';
import { SavedViewsService } from './saved-views.service';

const errors = { 400: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };

/** /api/views (issue 23): the caller's saved views of the Tasks page, personal or shared with a team. */
export function registerSavedViews(app: FastifyInstance): void {
  const r = typed(app);
  const service = new SavedViewsService(app.deps.database.db);
  const tags = ['views'];

  r.get('/api/views', {
    config: { auth: 'user' },
    schema: { tags, response: { 200: savedViewListDto } },
    handler: async (req) => service.list(requireUser(req).userId),
  });

  r.post('/api/views', {
    config: { auth: 'user' },
    schema: { tags, body: createSavedViewInput, response: { 201: savedViewDto, ...errors } },
    handler: async (req, reply) => reply.code(201).send(await service.create(requireUser(req).userId, req.body)),
  });

  r.patch('/api/views/:id', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, body: updateSavedViewInput, response: { 200: savedViewDto, ...errors } },
    handler: async (req) => service.update(requireUser(req).userId, req.params.id, req.body),
  });

  r.delete('/api/views/:id', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, response: { 204: z.null(), ...errors } },
    handler: async (req, reply) => {
      await service.remove(requireUser(req).userId, req.params.id);
      return reply.code(204).send(null);
    },
  });
}
