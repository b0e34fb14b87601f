import type { FastifyInstance, FastifyReply, onSendHookHandler } from 'fastify';
import { z } from 'zod';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import { sharedBoardDto, shareSettingsDto, shareSettingsInput, shareTokenParams } from '../../../domain/schemas/outside';
import { AppError } from '../../lib/errors';
import { actorOf, requireUser, typed } from '../../lib/http';
import { Sealer } from '../oidc';
import { ipKey } from '../../lib/rate-limit';
import { SharingService, shareTokenHash } from './sharing.service';
import { keepsUp, SHARE_HEARTBEAT_MS, type ShareSink, ShareStreams } from './sharing.streams';

const errors = { 400: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };

/** What every answer about a shared board carries: the token is in its URL, so it is neither indexed nor referred. */
export const PUBLIC_PAGE_HEADERS = {
  'x-robots-tag': 'noindex',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
} as const;

const publicHeaders: onSendHookHandler = async (_req, reply: FastifyReply, payload) => {
  reply.headers(PUBLIC_PAGE_HEADERS);
  return payload;
};

/**
 * A project's public board link (issue 40, decision 0028): its settings for the project's owners and admins, and the
 * board and its event stream for anyone with the token (rate-limited per IP, `noindex`, no referrer).
 */
export function registerSharing(app: FastifyInstance): void {
  const { database, changes, config } = app.deps;
  const sealer = new Sealer(config.authSecret, 'share-token');
  const service = new SharingService(database.db, changes, sealer, config.publicUrl);
  const r = typed(app);
  const tags = ['sharing'];

  r.get('/api/projects/:id/share', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, response: { 200: shareSettingsDto, ...errors } },
    handler: async (req) => service.get(requireUser(req).userId, req.params.id),
  });

  r.put('/api/projects/:id/share', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, body: shareSettingsInput, response: { 200: shareSettingsDto, ...errors } },
    handler: async (req) => service.update(actorOf(req), req.params.id, req.body),
  });

  r.post('/api/projects/:id/share/reset', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, response: { 200: shareSettingsDto, ...errors } },
    handler: async (req) => service.reset(actorOf(req), req.params.id),
  });

  r.get('/api/share/:token', {
    config: { auth: 'public', rateLimit: 'publicRead' },
    schema: {
      tags,
      params: shareTokenParams,
      response: { 200: sharedBoardDto, 400: errorResponse, 404: errorResponse, 429: errorResponse },
    },
    onSend: publicHeaders,
    handler: async (req) => service.board(req.params.token),
  });

  // This instance's streams, fed by every instance's events (LISTEN/NOTIFY), ended before the server closes.
  const streams = new ShareStreams((hash) => service.openHash(hash));
  const offEvent = app.eventChannel.onDomainEvent((event) => streams.onEvent(event));
  const offReconnect = app.eventChannel.onReconnect(() => streams.onReconnect());
  app.addHook('preClose', async () => {
    offEvent();
    offReconnect();
    streams.closeAll();
  });

  r.get('/api/share/:token/events', {
    config: { auth: 'public', rateLimit: 'publicRead' },
    schema: {
      tags,
      summary: 'Event stream (text/event-stream) of a shared board: `changed` when it changed',
      produces: ['text/event-stream'],
      params: shareTokenParams,
      response: { 200: z.string(), 400: errorResponse, 404: errorResponse, 429: errorResponse },
    },
    onSend: publicHeaders,
    handler: async (req, reply) => {
      const ip = ipKey(req.ip);
      if (!streams.admits(ip)) {
        reply.header('retry-after', String(SHARE_HEARTBEAT_MS / 1000));
        throw new AppError('rate_limited');
      }
      const hash = shareTokenHash(req.params.token);
      const generation = streams.generation;
      const share = await service.openHash(hash);
      if (!share) throw new AppError('share_not_found');
      // Gone while the link was looked up: nothing to follow (its 'close' has already been).
      reply.hijack();
      if (req.raw.destroyed || req.raw.socket?.destroyed) return;
      const res = reply.raw;
      res.writeHead(200, {
        ...PUBLIC_PAGE_HEADERS,
        'content-type': 'text/event-stream; charset=utf-8',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      let closed = false;
      const sink: ShareSink = {
        ip,
        write: (text) => {
          if (closed) return true;
          res.write(text);
          return keepsUp(res.writableLength);
        },
        end: () => {
          if (closed) return;
          closed = true;
          remove();
          res.end();
        },
      };
      const remove = streams.add(hash, share, sink, generation);
      res.on('close', sink.end);
      res.on('error', sink.end);
      res.write(': ready\n\n');
    },
  });
}
