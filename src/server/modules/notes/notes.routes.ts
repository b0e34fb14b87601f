import fastifyMultipart from '@fastify/multipart';
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { errorResponse, idParams, uuid } from '../../../domain/schemas/common';
import {
  createNoteInput,
  NOTE_SOCKET_CLOSE,
  noteDto,
  noteListDto,
  noteListQuery,
  noteSocketTicketDto,
  noteVersionDetailDto,
  noteVersionDto,
  noteVersionListDto,
  updateNoteInput,
} from '../../../domain/schemas/note';
import { actorOf, requireUser, typed } from '../../lib/http';
import { startPeriodic } from '../../lib/periodic';
import { FILE_CSP, fileUploadRoute, receiveFile } from '../attachments';
import { NoteImages } from './note-images';
import { NoteTickets } from './note-tickets';
import { NotesCollab } from './notes.collab';
import { NoteCompactor } from './notes.compaction';
import { NotesService, socketAccess } from './notes.service';

const errors = { 400: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const security = [{ bearer: [] }];
const tags = ['notes'];

const versionParams = z.object({ id: uuid, versionId: uuid });
const imageParams = z.object({ id: z.string().max(64), file: z.string().max(64) });
/** Checked by the signature (404), not by a schema (no 400 to probe with). */
const imageQuery = z.object({ exp: z.string().max(200).optional(), sig: z.string().max(200).optional() });
const socketParams = z.object({ id: z.string().max(64) });
const socketQuery = z.object({ ticket: z.string().max(1000).optional() });

/** A note's socket takes Yjs messages; a 50-page document sent whole after offline edits fits. */
const SOCKET_MAX_PAYLOAD = 32 * 1024 * 1024;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

declare module 'fastify' {
  interface FastifyInstance {
    /** The notes' collaboration on this instance (tests and the load script read its stats). */
    notesCollab: NotesCollab;
  }
}

/**
 * /api/notes (issue 25): a team's collaborative documents. REST for the list, the note's fields, versions and images;
 * the text is a Yjs document edited over `GET /api/notes/:id/socket` (y-websocket's protocol), opened with a
 * short-lived ticket from `POST /api/notes/:id/socket-ticket`.
 */
export function registerNotes(app: FastifyInstance): void {
  const { database, events, changes, config, storage } = app.deps;
  const db = database.db;
  const tickets = new NoteTickets(config.authSecret);
  const compactor = new NoteCompactor(db, changes);
  const collab = new NotesCollab({ db, channel: app.eventChannel, compactor, log: app.log });
  const images = new NoteImages(db, storage, config.authSecret, config.maxUploadMb * 1024 * 1024, app.log);
  const service = new NotesService({
    db,
    changes,
    tickets,
    collab,
    compactor,
    removeFiles: (noteId) => images.removeAll(noteId),
    imageQuery: (noteId) => images.query(noteId),
  });
  app.decorate('notesCollab', collab);

  // Sockets close at once on a removal, a deletion or a sign-out made here (the channel brings the other instances').
  const unsubscribe = events.subscribe((event) => collab.onLocalEvent(event));
  app.addHook('preClose', async () => {
    unsubscribe();
    await collab.stop();
  });

  noteRoutes(app, service);
  startImageSweeps(app, images);

  app.register(async (scope) => {
    await scope.register(fastifyMultipart, { throwFileSizeLimit: false });
    await scope.register(fastifyWebsocket, { options: { maxPayload: SOCKET_MAX_PAYLOAD } });
    const r = typed(scope);

    r.post('/api/notes/:id/images', {
      ...fileUploadRoute({
        tags,
        security,
        description:
          'One PNG, JPEG, GIF or WebP image in the multipart field `file` (at most MAX_UPLOAD_MB). Answers its signed URL for `<img>`: the path is the stable reference to keep in the document, the `?exp=…&sig=…` query expires like an attachment link (a fresh one comes with each socket ticket).',
        params: idParams,
        response: { 201: z.object({ url: z.string() }), ...errors, 413: errorResponse },
      }),
      handler: async (req, reply) => {
        await service.requireWritable(requireUser(req).userId, req.params.id);
        const result = await images.upload(req.params.id, (maxBytes) => receiveFile(req, maxBytes));
        return reply.code(201).send(result);
      },
    });

    // Public: an <img> carries no bearer token; the signature in the URL is the authorization.
    r.get('/api/notes/:id/images/:file', {
      config: { auth: 'public', ownCacheControl: true },
      compress: false,
      schema: {
        tags,
        description:
          "An image of a note, through a signed link: its path with the note's current `exp` and `sig` (from the upload's answer or a socket ticket). 404 once the link has expired or the note is deleted.",
        params: imageParams,
        querystring: imageQuery,
        response: { 404: errorResponse },
      },
      handler: async (req, reply) => {
        const image = await images.read(req.params.id.toLowerCase(), req.params.file.toLowerCase(), req.query.exp, req.query.sig);
        const maxAge = Math.max(0, image.expiry - Math.floor(Date.now() / 1000));
        return (reply as FastifyReply)
          .header('content-type', image.contentType)
          .header('content-length', String(image.size))
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', FILE_CSP)
          .header('cache-control', `private, max-age=${maxAge}`)
          .send(image.body);
      },
    });

    scope.get(
      '/api/notes/:id/socket',
      {
        websocket: true,
        config: { auth: 'public' },
        schema: {
          tags,
          description:
            'WebSocket (y-websocket protocol: Yjs sync and awareness, binary frames), opened with `?ticket=` from POST /api/notes/:id/socket-ticket. Closes 4401 (bad or expired ticket, or the session ended), 4403 (not a member), 4404 (no such note).',
          params: socketParams,
          querystring: socketQuery,
        },
      },
      (socket: WebSocket, req) => {
        // Messages may come before the checks are done: kept, then handled in order.
        const buffered: Buffer[] = [];
        socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
          buffered.push(Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data));
        });
        socket.on('error', () => {});
        const { id } = req.params as z.infer<typeof socketParams>;
        const { ticket } = req.query as z.infer<typeof socketQuery>;
        void (async () => {
          const noteId = id.toLowerCase();
          const claims = UUID.test(noteId) ? tickets.verify(ticket, noteId) : null;
          if (!claims) return socket.close(NOTE_SOCKET_CLOSE.unauthenticated, 'invalid ticket');
          const access = await socketAccess(db, noteId, claims.userId, claims.sessionId);
          if (!access) return socket.close(NOTE_SOCKET_CLOSE.gone, 'note not found');
          if (!access.sessionLive) return socket.close(NOTE_SOCKET_CLOSE.unauthenticated, 'session ended');
          if (!access.role) return socket.close(NOTE_SOCKET_CLOSE.forbidden, 'not a member');
          // A viewer or a guest reads the note live and writes nothing to it (issue 41).
          const { userId, sessionId } = claims;
          await collab.join(socket, noteId, access.teamId, { userId, sessionId, readOnly: access.readOnly }, buffered);
        })().catch((err) => {
          req.log.error({ err }, 'notes: opening a socket failed');
          socket.close(1011, 'server error');
        });
      },
    );
  });
}

/** Each instance sweeps deleted notes' images hourly (and once when ready); deleting twice is harmless. */
const SWEEP_EVERY_MS = 3600_000;
/** An image this young may belong to a note being created meanwhile in another transaction: never swept. */
const SWEEP_MIN_AGE_MS = 3600_000;

function startImageSweeps(app: FastifyInstance, images: NoteImages): void {
  startPeriodic(app, {
    everyMs: SWEEP_EVERY_MS,
    run: async (stopped) => {
      const removed = await images.sweepDeleted(new Date(Date.now() - SWEEP_MIN_AGE_MS), stopped);
      if (removed) app.log.info({ removed }, 'notes: deleted the images of deleted notes');
    },
    failed: 'notes: image sweep failed',
  });
}

function noteRoutes(app: FastifyInstance, service: NotesService): void {
  const r = typed(app);

  r.get('/api/notes', {
    config: { auth: 'user' },
    schema: { tags, security, querystring: noteListQuery, response: { 200: noteListDto, 400: errorResponse } },
    handler: async (req) => service.list(requireUser(req).userId, req.query),
  });

  r.post('/api/notes', {
    config: { auth: 'user' },
    schema: { tags, security, body: createNoteInput, response: { 201: noteDto, ...errors } },
    handler: async (req, reply) => reply.code(201).send(await service.create(actorOf(req), req.body)),
  });

  r.get('/api/notes/:id', {
    config: { auth: 'user' },
    schema: { tags, security, params: idParams, response: { 200: noteDto, ...errors } },
    handler: async (req) => service.get(requireUser(req).userId, req.params.id),
  });

  r.patch('/api/notes/:id', {
    config: { auth: 'user' },
    schema: { tags, security, params: idParams, body: updateNoteInput, response: { 200: noteDto, ...errors } },
    handler: async (req) => service.update(actorOf(req), req.params.id, req.body),
  });

  r.delete('/api/notes/:id', {
    config: { auth: 'user' },
    schema: { tags, security, params: idParams, response: { 204: z.null(), ...errors } },
    handler: async (req, reply) => {
      await service.remove(actorOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  });

  r.post('/api/notes/:id/socket-ticket', {
    config: { auth: 'user' },
    schema: {
      tags,
      security,
      description: 'A ticket (valid 60 s) for `GET /api/notes/:id/socket?ticket=…`; members only.',
      params: idParams,
      response: { 200: noteSocketTicketDto, ...errors },
    },
    handler: async (req) => {
      const { userId, sessionId } = requireUser(req);
      return service.ticket(userId, sessionId, req.params.id);
    },
  });

  r.get('/api/notes/:id/versions', {
    config: { auth: 'user' },
    schema: { tags, security, params: idParams, response: { 200: noteVersionListDto, ...errors } },
    handler: async (req) => service.listVersions(requireUser(req).userId, req.params.id),
  });

  r.post('/api/notes/:id/versions', {
    config: { auth: 'user' },
    schema: { tags, security, params: idParams, response: { 201: noteVersionDto, ...errors } },
    handler: async (req, reply) => reply.code(201).send(await service.createVersion(requireUser(req).userId, req.params.id)),
  });

  r.get('/api/notes/:id/versions/:versionId', {
    config: { auth: 'user' },
    schema: { tags, security, params: versionParams, response: { 200: noteVersionDetailDto, ...errors } },
    handler: async (req) => service.getVersion(requireUser(req).userId, req.params.id, req.params.versionId),
  });

  r.post('/api/notes/:id/versions/:versionId/restore', {
    config: { auth: 'user' },
    schema: { tags, security, params: versionParams, response: { 200: noteVersionDto, ...errors } },
    handler: async (req) => service.restore(requireUser(req).userId, req.params.id, req.params.versionId),
  });
}
