import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import { subtaskOrderInput } from '../../../domain/schemas/dependencies';
import {
  createTaskInput,
  listTasksQuery,
  moveTaskInput,
  subtaskListDto,
  taskBoardDto,
  taskBoardQuery,
  taskDto,
  taskListDto,
  taskReadDto,
  updateTaskInput,
} from '../../../domain/schemas/task';
import { actorOf, requireUser, typed } from '../../lib/http';
import { etagged } from '../../lib/etag';
import { builtExactly } from '../../lib/serializer';
import { TasksService } from './tasks.service';

const errors = { 400: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };

export function registerTasks(app: FastifyInstance): void {
  const r = typed(app);
  const service = new TasksService(app.deps.database.db, app.deps.changes, app.deps.database);

  r.get('/api/tasks', {
    config: { auth: 'user' },
    schema: { tags: ['tasks'], querystring: listTasksQuery, response: { 200: builtExactly(taskListDto), ...errors } },
    onSend: etagged,
    handler: async (req) => service.list(requireUser(req).userId, req.query),
  });

  r.get('/api/tasks/board', {
    config: { auth: 'user' },
    schema: { tags: ['tasks'], querystring: taskBoardQuery, response: { 200: builtExactly(taskBoardDto), ...errors } },
    onSend: etagged,
    handler: async (req) => service.board(requireUser(req).userId, req.query),
  });

  r.post('/api/tasks', {
    config: { auth: 'user' },
    schema: { tags: ['tasks'], body: createTaskInput, response: { 201: taskDto, ...errors } },
    handler: async (req, reply) => reply.code(201).send(await service.create(actorOf(req), req.body)),
  });

  r.get('/api/tasks/:id', {
    config: { auth: 'user' },
    schema: { tags: ['tasks'], params: idParams, response: { 200: taskReadDto, ...errors } },
    handler: async (req) => service.get(requireUser(req).userId, req.params.id),
  });

  r.patch('/api/tasks/:id', {
    config: { auth: 'user' },
    schema: { tags: ['tasks'], params: idParams, body: updateTaskInput, response: { 200: taskDto, ...errors } },
    handler: async (req) => service.update(actorOf(req), req.params.id, req.body),
  });

  r.patch('/api/tasks/:id/status', {
    config: { auth: 'user' },
    schema: { tags: ['tasks'], params: idParams, body: moveTaskInput, response: { 200: taskDto, ...errors } },
    handler: async (req) => service.move(actorOf(req), req.params.id, req.body.status),
  });

  r.get('/api/tasks/:id/subtasks', {
    config: { auth: 'user' },
    schema: { tags: ['tasks'], params: idParams, response: { 200: builtExactly(subtaskListDto), ...errors } },
    handler: async (req) => service.subtasks(requireUser(req).userId, req.params.id),
  });

  r.put('/api/tasks/:id/subtasks/order', {
    config: { auth: 'user' },
    schema: {
      tags: ['tasks'],
      params: idParams,
      body: subtaskOrderInput,
      response: { 200: builtExactly(subtaskListDto), ...errors },
    },
    handler: async (req) => service.reorderSubtasks(actorOf(req), req.params.id, req.body),
  });

  r.delete('/api/tasks/:id', {
    config: { auth: 'user' },
    schema: { tags: ['tasks'], params: idParams, response: { 204: z.null(), ...errors } },
    handler: async (req, reply) => {
      await service.remove(actorOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  });
}
