import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import { addDependencyInput, dependencyListDto, dependencyParams } from '../../../domain/schemas/dependencies';
import { actorOf, requireUser, typed } from '../../lib/http';
import { TaskDependenciesService } from './task-dependencies.service';

const errors = { 400: errorResponse, 404: errorResponse, 409: errorResponse };

/** Issue 37: "a task is blocked by another" (decision 0025, "API"). */
export function registerTaskDependencies(app: FastifyInstance): void {
  const r = typed(app);
  const service = new TaskDependenciesService(app.deps.database.db, app.deps.changes);

  r.get('/api/tasks/:id/dependencies', {
    config: { auth: 'user' },
    schema: { tags: ['tasks'], params: idParams, response: { 200: dependencyListDto, ...errors } },
    handler: async (req) => service.list(requireUser(req).userId, req.params.id),
  });

  r.post('/api/tasks/:id/dependencies', {
    config: { auth: 'user' },
    schema: {
      tags: ['tasks'],
      params: idParams,
      body: addDependencyInput,
      response: { 201: dependencyListDto, ...errors },
    },
    handler: async (req, reply) => reply.code(201).send(await service.add(actorOf(req), req.params.id, req.body.blockedBy)),
  });

  r.delete('/api/tasks/:id/dependencies/:otherId', {
    config: { auth: 'user' },
    schema: { tags: ['tasks'], params: dependencyParams, response: { 204: z.null(), ...errors } },
    handler: async (req, reply) => {
      await service.remove(actorOf(req), req.params.id, req.params.otherId);
      return reply.code(204).send(null);
    },
  });
}
