import type { FastifyInstance, FastifyReply, onSendHookHandler } from 'fastify';
import { z } from 'zod';
import type { DomainEvent } from '../../lib/events';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import { sharedBoardDto, shareSettingsDto, shareSettingsInput, shareTokenParams } from '../../../domain/schemas/outside';
import { AppError } from '../../lib/errors';
import { actorOf, requireUser, typed } from '../../lib/http';
import { Sealer } from '../oidc';
import { SharingService } from './sharing.service';

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

/** A comment line keeps proxies from closing an idle stream; each one also checks that the link still works. */
export const SHARE_HEARTBEAT_MS = 25_000;
/** Events arriving together make one `changed`. */
const COALESCE_MS = 50;

/** The events that change what a shared board shows (a project's name or link, its workflow, its tasks). */
const BOARD_EVENTS = new Set<DomainEvent['type']>([
  'project.updated',
  'project.deleted',
  'status.created',
  'status.updated',
  'status.deleted',
  'task.created',
  'task.updated',
  'task.deleted',
  'task.detail_changed',
]);

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

  // Open streams, ended before the server closes (they would hold it open).
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
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
      const { token } = req.params;
      const share = await service.open(token);
      if (!share) throw new AppError('share_not_found');
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        ...PUBLIC_PAGE_HEADERS,
        'content-type': 'text/event-stream; charset=utf-8',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });

      let closed = false;
      let timer: NodeJS.Timeout | null = null;
      let checking = false;
      /** A change came while a check was running: one more check (and `changed`) after it. */
      let changedMeanwhile = false;
      /** The link still opens this project: `changed` (when told), else the stream ends. */
      const check = async (changed: boolean): Promise<void> => {
        if (closed) return;
        if (checking) {
          changedMeanwhile ||= changed;
          return;
        }
        checking = true;
        try {
          const still = await service.open(token);
          if (!still || still.projectId !== share.projectId) end();
          else if (changed && !closed) res.write('event: changed\ndata: changed\n\n');
        } catch {
          // The database did not answer: the next event or heartbeat checks again.
        } finally {
          checking = false;
        }
        if (changedMeanwhile) {
          changedMeanwhile = false;
          await check(true);
        }
      };
      const soon = () => {
        timer ??= setTimeout(() => {
          timer = null;
          void check(true);
        }, COALESCE_MS);
      };
      const offEvent = app.eventChannel.onDomainEvent((event) => {
        if (!BOARD_EVENTS.has(event.type) || !('projectId' in event) || event.projectId !== share.projectId) return;
        soon();
      });
      // Events may have been missed while the channel was down: the page reads the board again.
      const offReconnect = app.eventChannel.onReconnect(soon);
      const heartbeat = setInterval(() => {
        if (closed) return;
        res.write(': ping\n\n');
        void check(false);
      }, SHARE_HEARTBEAT_MS);
      heartbeat.unref();
      const end = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        if (timer) clearTimeout(timer);
        offEvent();
        offReconnect();
        streams.delete(end);
        res.end();
      };
      streams.add(end);
      res.on('close', end);
      res.on('error', end);
      res.write(': ready\n\n');
    },
  });
}
