import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import {
  createWebhookInput,
  listWebhookDeliveriesQuery,
  updateWebhookInput,
  webhookCreatedDto,
  webhookDeliveryDto,
  webhookDeliveryListDto,
  webhookDeliveryParams,
  webhookDto,
  webhookListDto,
  webhookParams,
} from '../../../domain/schemas/webhook';
import { actorOf, requireUser, typed } from '../../lib/http';
import { Sealer } from '../oidc';
import { wake } from './webhooks.outbox';
import { type WebhookActor, WebhooksService } from './webhooks.service';
import { WebhookWorker, WEBHOOK_RETRY_DELAYS_MS } from './webhooks.worker';

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: { worker: WebhookWorker };
  }
}

const errors = { 400: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const POLL_INTERVAL_MS = 2_000;
const TIMEOUT_MS = 10_000;

function webhookActor(req: FastifyRequest): WebhookActor {
  return { ...actorOf(req), fullName: requireUser(req).user.fullName };
}

/**
 * /api/teams/:id/webhooks (issue 26): a team's webhooks and their delivery log, for its owners and admins; and the
 * worker that delivers them (every instance runs one, started and stopped with the app).
 */
export function registerWebhooks(app: FastifyInstance): void {
  const { config, database, events } = app.deps;
  const sealer = new Sealer(config.authSecret, 'webhook-secret');
  const allowPrivate = config.webhooksAllowPrivate ?? false;
  const worker = new WebhookWorker(database.db, sealer, events, app.log, {
    pollIntervalMs: config.webhookPollIntervalMs ?? POLL_INTERVAL_MS,
    timeoutMs: config.webhookTimeoutMs ?? TIMEOUT_MS,
    retryDelaysMs: config.webhookRetryDelaysMs ?? WEBHOOK_RETRY_DELAYS_MS,
    allowPrivate,
    notice: { publicUrl: config.publicUrl, emailVerification: config.emailVerification },
  });
  app.decorate('webhooks', { worker });
  const service = new WebhooksService(database.db, app.deps.changes, sealer, allowPrivate, () => worker.nudge());
  let unsubscribe: (() => void) | undefined;
  app.addHook('onReady', async () => {
    worker.start();
    // Deliveries queued by a change are looked for once it committed (its event), not at the next tick.
    unsubscribe = events.subscribe(() => {
      if (!wake.queued) return;
      wake.queued = false;
      worker.nudge();
    });
  });
  app.addHook('onClose', async () => {
    unsubscribe?.();
    await worker.stop();
  });

  const r = typed(app);
  const tags = ['webhooks'];
  const base = '/api/teams/:id/webhooks';

  r.get(base, {
    config: { auth: 'user' },
    schema: { tags, params: idParams, response: { 200: webhookListDto, ...errors } },
    handler: async (req) => service.list(requireUser(req).userId, req.params.id),
  });

  r.post(base, {
    config: { auth: 'user' },
    schema: { tags, params: idParams, body: createWebhookInput, response: { 201: webhookCreatedDto, ...errors } },
    handler: async (req, reply) => reply.code(201).send(await service.create(webhookActor(req), req.params.id, req.body)),
  });

  r.patch(`${base}/:webhookId`, {
    config: { auth: 'user' },
    schema: { tags, params: webhookParams, body: updateWebhookInput, response: { 200: webhookDto, ...errors } },
    handler: async (req) => service.update(webhookActor(req), req.params.id, req.params.webhookId, req.body),
  });

  r.delete(`${base}/:webhookId`, {
    config: { auth: 'user' },
    schema: { tags, params: webhookParams, response: { 204: z.null(), ...errors } },
    handler: async (req, reply) => {
      await service.remove(webhookActor(req), req.params.id, req.params.webhookId);
      return reply.code(204).send(null);
    },
  });

  r.get(`${base}/:webhookId/deliveries`, {
    config: { auth: 'user' },
    schema: {
      tags,
      params: webhookParams,
      querystring: listWebhookDeliveriesQuery,
      response: { 200: webhookDeliveryListDto, ...errors },
    },
    handler: async (req) => service.deliveries(requireUser(req).userId, req.params.id, req.params.webhookId, req.query),
  });

  r.post(`${base}/:webhookId/deliveries/:deliveryId/redeliver`, {
    config: { auth: 'user' },
    schema: { tags, params: webhookDeliveryParams, response: { 202: webhookDeliveryDto, ...errors } },
    handler: async (req, reply) =>
      reply
        .code(202)
        .send(await service.redeliver(requireUser(req).userId, req.params.id, req.params.webhookId, req.params.deliveryId)),
  });

  r.post(`${base}/:webhookId/test`, {
    config: { auth: 'user' },
    schema: { tags, params: webhookParams, response: { 202: webhookDeliveryDto, ...errors } },
    handler: async (req, reply) =>
      reply.code(202).send(await service.sendTest(webhookActor(req), req.params.id, req.params.webhookId)),
  });
}
