import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import {
  createStatusInput,
  deleteStatusInput,
  statusDto,
  statusListDto,
  statusOrderInput,
  updateStatusInput,
} from '../../../domain/schemas/workflow';
import { actorOf, requireUser, typed } from '../../lib/http';
import { WorkflowsService } from './workflows.service';

const errors = { 400: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };

/**
 * A project's workflow (issue 36): its statuses, read by its team's members, changed by those who may edit the project.
 * A status is addressed by its own id once it exists (`/api/statuses/:id`), as a task is.
 */
export function registerWorkflows(app: FastifyInstance): void {
  const service = new WorkflowsService(app.deps.database.db, app.deps.changes);
  const r = typed(app);
  const tags = ['workflows'];

  r.get('/api/projects/:id/statuses', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, response: { 200: statusListDto, 400: errorResponse, 404: errorResponse } },
    handler: async (req) => service.list(requireUser(req).userId, req.params.id),
  });

  r.post('/api/projects/:id/statuses', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, body: createStatusInput, response: { 201: statusDto, ...errors } },
    handler: async (req, reply) => reply.code(201).send(await service.create(actorOf(req), req.params.id, req.body)),
  });

  r.put('/api/projects/:id/statuses/order', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, body: statusOrderInput, response: { 200: statusListDto, ...errors } },
    handler: async (req) => service.reorder(actorOf(req), req.params.id, req.body),
  });

  r.patch('/api/statuses/:id', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, body: updateStatusInput, response: { 200: statusDto, ...errors } },
    handler: async (req) => service.update(actorOf(req), req.params.id, req.body),
  });

  // The body is optional: a status without tasks is deleted without one.
  r.delete('/api/statuses/:id', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, body: deleteStatusInput.nullish(), response: { 204: z.null(), ...errors } },
    handler: async (req, reply) => {
      await service.remove(actorOf(req), req.params.id, req.body);
      return reply.code(204).send(null);
    },
  });
}
