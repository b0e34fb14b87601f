import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import {
  checklistDto,
  checklistItemDto,
  checklistItemInput,
  checklistItemUpdate,
  checklistOrderInput,
  taskItemParams,
} from '../../../domain/schemas/task-detail';
import { actorOf, requireUser, typed } from '../../lib/http';
import { TaskChecklistService } from './task-checklist.service';

const errors = { 400: errorResponse, 404: errorResponse, 409: errorResponse };

export function registerTaskChecklist(app: FastifyInstance): void {
  const r = typed(app);
  const service = new TaskChecklistService(app.deps.database.db, app.deps.changes);

  r.get('/api/tasks/:id/checklist', {
    config: { auth: 'user' },
    schema: { tags: ['tasks'], params: idParams, response: { 200: checklistDto, ...errors } },
    handler: async (req) => service.list(requireUser(req).userId, req.params.id),
  });

  r.post('/api/tasks/:id/checklist', {
    config: { auth: 'user' },
    schema: { tags: ['tasks'], params: idParams, body: checklistItemInput, response: { 201: checklistItemDto, ...errors } },
    handler: async (req, reply) => reply.code(201).send(await service.add(actorOf(req), req.params.id, req.body)),
  });

  r.put('/api/tasks/:id/checklist/order', {
    config: { auth: 'user' },
    schema: { tags: ['tasks'], params: idParams, body: checklistOrderInput, response: { 200: checklistDto, ...errors } },
    handler: async (req) => service.reorder(actorOf(req), req.params.id, req.body),
  });

  r.patch('/api/tasks/:id/checklist/:itemId', {
    config: { auth: 'user' },
    schema: {
      tags: ['tasks'],
      params: taskItemParams,
      body: checklistItemUpdate,
      response: { 200: checklistItemDto, ...errors },
    },
    handler: async (req) => service.update(actorOf(req), req.params.id, req.params.itemId, req.body),
  });

  r.delete('/api/tasks/:id/checklist/:itemId', {
    config: { auth: 'user' },
    schema: { tags: ['tasks'], params: taskItemParams, response: { 204: z.null(), ...errors } },
    handler: async (req, reply) => {
      await service.remove(actorOf(req), req.params.id, req.params.itemId);
      return reply.code(204).send(null);
    },
  });
}
