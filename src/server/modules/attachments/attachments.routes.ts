import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import { attachmentDto, attachmentListDto, taskItemParams } from '../../../domain/schemas/task-detail';
import { actorOf, requireUser, typed } from '../../lib/http';
import { describeStorage } from '../../lib/storage';
import { startStorageSweeps } from '../../lib/storage/sweep';
import { AttachmentsService } from './attachments.service';
import { isRasterImage } from './file-content';
import { FileLinks } from './file-links';
import { contentDisposition, FILE_CSP } from './file-name';
import { fileUploadRoute, receiveFile } from './multipart';
import { sweepOrphans } from './orphan-sweep';

const errors = { 400: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const security = [{ bearer: [] }];
const tags = ['attachments'];

/** The link's query: checked by the signature (404 file_link_invalid), not by a schema (no 400 to probe with). */
const fileLinkQuery = z.object({ exp: z.string().optional(), sig: z.string().optional() });

/**
 * Task attachments (issue 22): files in the store of lib/storage (a user's avatar is modules/avatars').
 * Multipart bodies are parsed only inside this plugin: every other route still takes JSON alone (415 otherwise).
 */
export function registerAttachments(app: FastifyInstance): void {
  const { database, storage, events, changes, config } = app.deps;
  const links = new FileLinks(config.authSecret);
  const service = new AttachmentsService({
    db: database.db,
    storage,
    changes,
    links,
    maxUploadBytes: config.maxUploadMb * 1024 * 1024,
    log: app.log,
  });

  app.register(async (scope) => {
    await scope.register(fastifyMultipart, { throwFileSizeLimit: false });
    attachmentRoutes(scope, service);
  });

  // A deleted task's files go with it (its rows went by cascade). Several instances may each do it: deleting twice is
  // harmless. A failure leaves orphans for the sweep.
  const unsubscribe = events.subscribe((event) => {
    if (event.type !== 'task.deleted') return;
    service
      .removeTaskFiles(event.taskId)
      .catch((error) => app.log.warn({ err: error, taskId: event.taskId }, "could not delete a deleted task's files"));
  });
  app.addHook('onClose', async () => unsubscribe());
  app.addHook('onReady', async () => app.log.info(`files are stored in ${describeStorage(config.storage)}`));
  startStorageSweeps(app, 'orphan sweep', (stopped) => sweepOrphans(database.db, storage, { stopped }));
}

function attachmentRoutes(app: FastifyInstance, service: AttachmentsService): void {
  const r = typed(app);

  r.get('/api/tasks/:id/attachments', {
    config: { auth: 'user' },
    schema: { tags, security, params: idParams, response: { 200: attachmentListDto, ...errors } },
    handler: async (req) => service.list(requireUser(req).userId, req.params.id),
  });

  r.post('/api/tasks/:id/attachments', {
    ...fileUploadRoute({
      tags,
      security,
      description: `One file in the multipart field \`file\`, streamed to the file store. At most MAX_UPLOAD_MB (413 file_too_large); its type is read from its bytes.`,
      params: idParams,
      response: { 201: attachmentDto, ...errors, 413: errorResponse },
    }),
    handler: async (req, reply) => {
      const dto = await service.upload(actorOf(req), req.params.id, (maxBytes) => receiveFile(req, maxBytes));
      return reply.code(201).send(dto);
    },
  });

  r.delete('/api/tasks/:id/attachments/:itemId', {
    config: { auth: 'user' },
    schema: { tags, security, params: taskItemParams, response: { 204: z.null(), ...errors } },
    handler: async (req, reply) => {
      await service.remove(actorOf(req), req.params.id, req.params.itemId);
      return reply.code(204).send(null);
    },
  });

  // Public: an <img> or a download link carries no bearer token; the signed, expiring link is the authorization.
  r.get('/api/files/:id', {
    config: { auth: 'public', ownCacheControl: true },
    compress: false,
    schema: {
      tags,
      description: 'The bytes of an attachment, through the signed link of its `url`.',
      params: idParams,
      querystring: fileLinkQuery,
      response: { 400: errorResponse, 404: errorResponse },
    },
    handler: async (req, reply) => {
      const file = await service.download(req.params.id, req.query.exp, req.query.sig);
      const maxAge = Math.max(0, file.expiry - Math.floor(Date.now() / 1000));
      // The bytes, streamed: no schema of the route's describes them.
      return (reply as FastifyReply)
        .header('content-type', file.contentType)
        .header('content-length', String(file.size))
        .header(
          'content-disposition',
          contentDisposition(isRasterImage(file.contentType) ? 'inline' : 'attachment', file.fileName),
        )
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', FILE_CSP)
        .header('cache-control', `private, max-age=${maxAge}`)
        .send(file.body);
    },
  });
}
