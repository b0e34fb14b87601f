import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import {
  commentDto,
  commentInput,
  commentListDto,
  mentionCandidatesDto,
  taskItemParams,
  watchInput,
  watchStateDto,
} from '../../../domain/schemas/task-detail';
import { actorOf, requireUser, typed } from '../../lib/http';
import { TaskCommentsService } from './task-comments.service';

const errors = { 400: errorResponse, 403: errorResponse, 404: errorResponse };
const tags = ['tasks'];

/** Comments with @mentions on a task, and who watches it (docs: /work/briefs/api.md, issue 22). */
export function registerTaskComments(app: FastifyInstance): void {
  const r = typed(app);
  const service = new TaskCommentsService(app.deps.database.db, app.deps.changes);

  r.get('/api/tasks/:id/comments', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, response: { 200: commentListDto, ...errors } },
    handler: async (req) => service.list(requireUser(req).userId, req.params.id),
  });

  r.post('/api/tasks/:id/comments', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, body: commentInput, response: { 201: commentDto, ...errors } },
    handler: async (req, reply) => reply.code(201).send(await service.create(actorOf(req), req.params.id, req.body)),
  });

  r.patch('/api/tasks/:id/comments/:itemId', {
    config: { auth: 'user' },
    schema: { tags, params: taskItemParams, body: commentInput, response: { 200: commentDto, ...errors } },
    handler: async (req) => service.update(actorOf(req), req.params.id, req.params.itemId, req.body),
  });

  r.delete('/api/tasks/:id/comments/:itemId', {
    config: { auth: 'user' },
    schema: { tags, params: taskItemParams, response: { 204: z.null(), ...errors } },
    handler: async (req, reply) => {
      await service.remove(actorOf(req), req.params.id, req.params.itemId);
      return reply.code(204).send(null);
    },
  });

  r.get('/api/tasks/:id/mentionable', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, response: { 200: mentionCandidatesDto, ...errors } },
    handler: async (req) => service.mentionable(requireUser(req).userId, req.params.id),
  });

  r.get('/api/tasks/:id/watch', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, response: { 200: watchStateDto, ...errors } },
    handler: async (req) => service.watchState(requireUser(req).userId, req.params.id),
  });

  r.put('/api/tasks/:id/watch', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, body: watchInput, response: { 200: watchStateDto, ...errors } },
    handler: async (req) => service.setWatching(actorOf(req), req.params.id, req.body.watching),
  });
}
