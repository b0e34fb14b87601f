import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { userDto } from '../../../domain/schemas/auth';
import { errorResponse } from '../../../domain/schemas/common';
import { requireUser, typed } from '../../lib/http';
import { startStorageSweeps } from '../../lib/storage/sweep';
import { FILE_CSP, fileUploadRoute, receiveFile } from '../attachments';
import { AvatarsService } from './avatars.service';

const security = [{ bearer: [] }];
const tags = ['me'];

/**
 * Avatars (issue 21, Settings → Profile): one image a user, in the file store of lib/storage. Multipart bodies are
 * parsed only inside this plugin: every other route still takes JSON alone (415 otherwise).
 */
export function registerAvatars(app: FastifyInstance): void {
  const { database, storage } = app.deps;
  const service = new AvatarsService(database.db, storage, app.log);
  app.register(async (scope) => {
    await scope.register(fastifyMultipart, { throwFileSizeLimit: false });
    avatarRoutes(scope, service);
  });
  startStorageSweeps(app, 'avatar sweep', async (stopped) => ({ deleted: await service.sweepOrphans({ stopped }) }));
}

/** Settings → Profile: upload, clear and serve the avatar. */
function avatarRoutes(app: FastifyInstance, service: AvatarsService): void {
  const r = typed(app);

  r.post('/api/me/avatar', {
    ...fileUploadRoute({
      tags,
      security,
      description:
        'One PNG, JPEG, GIF or WebP image of at most 5 MB in the multipart field `file` (cropped square by the client).',
      response: { 200: userDto, 400: errorResponse, 413: errorResponse },
    }),
    handler: async (req) => service.upload(requireUser(req).userId, (maxBytes) => receiveFile(req, maxBytes)),
  });

  r.delete('/api/me/avatar', {
    config: { auth: 'user' },
    schema: { tags, security, response: { 200: userDto } },
    handler: async (req) => service.remove(requireUser(req).userId),
  });

  // Public: an avatar is shown to teammates by <img>. Its URL is a capability (two random ids), changed with the image.
  r.get('/api/avatars/:userId/:file', {
    config: { auth: 'public', ownCacheControl: true },
    compress: false,
    schema: {
      tags,
      params: z.object({ userId: z.string().max(64), file: z.string().max(64) }),
      response: { 404: errorResponse },
    },
    handler: async (req, reply) => {
      const image = await service.read(req.params.userId, req.params.file);
      // The bytes, streamed: no schema of the route's describes them.
      return (reply as FastifyReply)
        .header('content-type', image.contentType)
        .header('content-length', String(image.size))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', FILE_CSP)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(image.body);
    },
  });
}
