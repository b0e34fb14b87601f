import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import {
  startTimerDto,
  startTimerInput,
  stopTimerDto,
  timeEntriesQuery,
  timeEntryDto,
  timeEntryInput,
  timeEntryListDto,
  timeEntryPatch,
  timerStateDto,
} from '../../../domain/schemas/time';
import { actorOf, requireUser, typed } from '../../lib/http';
import { TimeTrackingService } from './time-tracking.service';

const errors = { 400: errorResponse, 403: errorResponse, 404: errorResponse };
const tags = ['time'];

/** Time entries on tasks and the caller's timer (issue 39, decision 0027 "Time"). */
export function registerTimeTracking(app: FastifyInstance): void {
  const r = typed(app);
  const service = new TimeTrackingService(app.deps.database.db, app.deps.changes);

  r.get('/api/tasks/:id/time-entries', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, response: { 200: timeEntryListDto, ...errors } },
    handler: async (req) => service.listForTask(requireUser(req).userId, req.params.id),
  });

  r.post('/api/tasks/:id/time-entries', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, body: timeEntryInput, response: { 201: timeEntryDto, ...errors } },
    handler: async (req, reply) => reply.code(201).send(await service.create(actorOf(req), req.params.id, req.body)),
  });

  r.get('/api/time-entries', {
    config: { auth: 'user' },
    schema: { tags, querystring: timeEntriesQuery, response: { 200: timeEntryListDto, ...errors } },
    handler: async (req) => service.list(requireUser(req).userId, req.query),
  });

  r.patch('/api/time-entries/:id', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, body: timeEntryPatch, response: { 200: timeEntryDto, ...errors } },
    handler: async (req) => service.update(actorOf(req), req.params.id, req.body),
  });

  r.delete('/api/time-entries/:id', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, response: { 204: z.null(), ...errors } },
    handler: async (req, reply) => {
      await service.remove(actorOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  });

  r.get('/api/me/timer', {
    config: { auth: 'user' },
    schema: { tags, response: { 200: timerStateDto, ...errors } },
    handler: async (req) => service.timer(requireUser(req).userId),
  });

  r.post('/api/me/timer', {
    config: { auth: 'user' },
    schema: { tags, body: startTimerInput, response: { 200: startTimerDto, ...errors } },
    handler: async (req) => service.start(actorOf(req), req.body.taskId),
  });

  r.delete('/api/me/timer', {
    config: { auth: 'user' },
    schema: { tags, response: { 200: stopTimerDto, ...errors } },
    handler: async (req) => service.stop(actorOf(req)),
  });
}
