import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser, typed } from '../../lib/http';
import { EventChannel } from './realtime.channel';
import { RealtimeService, type StreamSink } from './realtime.service';

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's LISTEN/NOTIFY channel (the notes' collaboration sends its messages through it too). */
    eventChannel: EventChannel;
  }
}

/**
 * Comment lines keep proxies from closing an idle stream; each one also re-checks the session (a
 * revocation normally closes the stream at once, through a session.revoked event).
 */
export const HEARTBEAT_MS = 20_000;

/**
 * Realtime updates as Server-Sent Events. The stream is authenticated like any other call, with
 * the `Authorization: Bearer` header (the client reads it with fetch, not EventSource), so no
 * token ever appears in a URL. Every DomainEvent published on this instance goes out through
 * PostgreSQL NOTIFY; every instance LISTENs and forwards each event to the streams allowed to see it.
 */
export function registerRealtime(app: FastifyInstance): RealtimeService {
  const { database, events, auth, apiTokens } = app.deps;
  const realtime = new RealtimeService(database.db, app.log);
  const channel = new EventChannel(
    database,
    { onEvent: (event) => realtime.dispatch(event), onResync: () => realtime.resync() },
    app.log,
  );
  app.decorate('eventChannel', channel);

  const unsubscribe = events.subscribe((event) => {
    channel.publish(event).catch((err) => {
      // The database did not take the NOTIFY: at least this instance's streams get the event.
      app.log.warn({ err, event: event.type }, 'realtime: NOTIFY failed, delivering locally');
      realtime.dispatch(event);
    });
  });

  app.addHook('onReady', async () => channel.start());
  // Open streams would hold the server open: end them before it closes.
  app.addHook('preClose', async () => realtime.closeAll());
  app.addHook('onClose', async () => {
    unsubscribe();
    await channel.stop();
  });

  typed(app).get('/api/events', {
    config: { auth: 'user' },
    schema: {
      tags: ['realtime'],
      summary: 'Event stream (text/event-stream) of changes the caller may see',
      produces: ['text/event-stream'],
      response: { 200: z.string() },
    },
    handler: async (req, reply) => {
      const { userId, sessionId, apiToken } = requireUser(req);
      const token = req.headers.authorization?.slice(7).trim() ?? '';
      // A personal API token's stream closes when the token is revoked (its id is published as the session's).
      const streamSession = apiToken?.id ?? sessionId;
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });

      let closed = false;
      let remove: (() => void) | null = null;
      const heartbeat = setInterval(() => {
        sink.send('ping', null);
        (apiToken ? apiTokens.authenticate(token) : auth.authenticate(token))
          .then((still) => {
            if (!still) end();
          })
          .catch(() => {});
      }, HEARTBEAT_MS);
      heartbeat.unref();

      const end = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        remove?.();
        res.end();
      };
      const sink: StreamSink = {
        send(event, data) {
          if (closed) return;
          if (event === 'ping') res.write(': ping\n\n');
          else res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
        },
        close: end,
      };
      res.on('close', end);
      res.on('error', end);

      try {
        remove = await realtime.open(userId, streamSession, sink);
      } catch (err) {
        req.log.error({ err }, 'realtime: opening a stream failed');
        end();
        return;
      }
      if (closed) remove();
      else sink.send('ready', {});
    },
  });

  return realtime;
}
