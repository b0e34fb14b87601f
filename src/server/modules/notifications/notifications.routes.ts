import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { idParams, errorResponse } from '../../../domain/schemas/common';
import { listNotificationsQuery, notificationListDto } from '../../../domain/schemas/notification';
import { requireUser, typed } from '../../lib/http';
import { NotificationsService } from './notifications.service';

/** Notification routes, plus the listener that writes notifications after each committed change. */
export function registerNotifications(app: FastifyInstance): NotificationsService {
  const { database, events } = app.deps;
  const service = new NotificationsService(database.db, events, app.deps.config.emailVerification);

  const unsubscribe = events.subscribe((event) => {
    service.handle(event).catch((err) => app.log.error({ err, event: event.type }, 'writing notifications failed'));
  });
  app.addHook('onClose', async () => unsubscribe());

  const r = typed(app);

  r.get('/api/notifications', {
    config: { auth: 'user' },
    schema: { tags: ['notifications'], querystring: listNotificationsQuery, response: { 200: notificationListDto } },
    handler: async (req) => service.list(requireUser(req).userId, req.query.limit, req.query.offset),
  });

  r.patch('/api/notifications/:id/read', {
    config: { auth: 'user' },
    schema: { tags: ['notifications'], params: idParams, response: { 204: z.null(), 404: errorResponse } },
    handler: async (req, reply) => {
      await service.markRead(requireUser(req).userId, req.params.id);
      return reply.code(204).send(null);
    },
  });

  r.post('/api/notifications/read-all', {
    config: { auth: 'user' },
    schema: { tags: ['notifications'], response: { 204: z.null() } },
    handler: async (req, reply) => {
      await service.markAllRead(requireUser(req).userId);
      return reply.code(204).send(null);
    },
  });

  return service;
}
