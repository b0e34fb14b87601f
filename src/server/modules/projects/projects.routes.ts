import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import { createProjectInput, listProjectsQuery, projectDto, updateProjectInput } from '../../../domain/schemas/project';
import { actorOf, requireUser, typed } from '../../lib/http';
import { ProjectsService } from './projects.service';

const errors = { 400: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };

export function registerProjects(app: FastifyInstance): void {
  const service = new ProjectsService(app.deps.database.db, app.deps.changes);
  const r = typed(app);

  r.get('/api/projects', {
    config: { auth: 'user' },
    schema: { tags: ['projects'], querystring: listProjectsQuery, response: { 200: z.array(projectDto), 400: errorResponse } },
    handler: async (req) => service.list(requireUser(req).userId, req.query),
  });

  r.post('/api/projects', {
    config: { auth: 'user' },
    schema: { tags: ['projects'], body: createProjectInput, response: { 201: projectDto, ...errors } },
    handler: async (req, reply) => reply.code(201).send(await service.create(actorOf(req), req.body)),
  });

  r.get('/api/projects/:id', {
    config: { auth: 'user' },
    schema: { tags: ['projects'], params: idParams, response: { 200: projectDto, ...errors } },
    handler: async (req) => service.get(requireUser(req).userId, req.params.id),
  });

  r.patch('/api/projects/:id', {
    config: { auth: 'user' },
    schema: { tags: ['projects'], params: idParams, body: updateProjectInput, response: { 200: projectDto, ...errors } },
    handler: async (req) => service.update(actorOf(req), req.params.id, req.body),
  });

  r.delete('/api/projects/:id', {
    config: { auth: 'user' },
    schema: { tags: ['projects'], params: idParams, response: { 204: z.null(), ...errors } },
    handler: async (req, reply) => {
      await service.remove(actorOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  });
}
