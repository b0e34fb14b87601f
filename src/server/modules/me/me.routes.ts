import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SETTINGS_MSG } from '../../../domain/settings-messages';
import { changePasswordInput, mailAcceptedResponse } from '../../../domain/schemas/auth';
import { errorResponse } from '../../../domain/schemas/common';
import {
  changeEmailInput,
  confirmEmailChangeInput,
  deleteAccountInput,
  notificationPreferencesDto,
  profileDto,
  updateProfileInput,
} from '../../../domain/schemas/me';
import { actorOf, requireUser, typed } from '../../lib/http';
import { MeService } from './me.service';

/**
 * /api/me/*: the caller's own account (Settings), and the link that confirms a new email address. A password given
 * again goes through the sign-in guard (RateLimiter.signIn): its failures count like a sign-in's.
 */
export function registerMe(app: FastifyInstance): void {
  const { database, changes, rateLimiter } = app.deps;
  const service = new MeService({ db: database.db, changes, rateLimiter });
  const r = typed(app);
  const security = [{ bearer: [] }];
  const tags = ['me'];

  r.get('/api/me/profile', {
    config: { auth: 'user' },
    schema: { tags, security, response: { 200: profileDto } },
    handler: async (req) => service.profile(requireUser(req).user),
  });

  r.patch('/api/me/profile', {
    config: { auth: 'user' },
    schema: { tags, security, body: updateProfileInput, response: { 200: profileDto, 400: errorResponse } },
    handler: async (req) => service.updateProfile(requireUser(req).userId, req.body),
  });

  r.post('/api/me/email', {
    config: { auth: 'user', rateLimit: 'mailLinkIp' },
    schema: {
      tags,
      security,
      body: changeEmailInput,
      response: { 202: mailAcceptedResponse, 400: errorResponse, 409: errorResponse, 429: errorResponse },
    },
    handler: async (req, reply) => {
      const { user } = requireUser(req);
      await service.requestEmailChange(actorOf(req), user, req.body, rateLimiter.signIn(user.email, req.ip));
      return reply.code(202).send({ message: SETTINGS_MSG.emailChangeSent(req.body.email) });
    },
  });

  // Public: the link may be opened in a browser where the account is not signed in; its token is the proof.
  r.post('/api/auth/confirm-email-change', {
    config: { auth: 'public', rateLimit: 'auth' },
    schema: {
      tags: ['auth'],
      body: confirmEmailChangeInput,
      response: { 204: z.null(), 400: errorResponse, 409: errorResponse },
    },
    handler: async (req, reply) => {
      await service.confirmEmailChange(req.body.token, req.ip);
      return reply.code(204).send(null);
    },
  });

  r.post('/api/me/password', {
    config: { auth: 'user', rateLimit: 'auth' },
    schema: { tags, security, body: changePasswordInput, response: { 204: z.null(), 400: errorResponse, 429: errorResponse } },
    handler: async (req, reply) => {
      const caller = requireUser(req);
      await service.changePassword(caller, req.body, rateLimiter.signIn(caller.user.email, req.ip), req.ip);
      return reply.code(204).send(null);
    },
  });

  r.post('/api/me/delete', {
    config: { auth: 'user', rateLimit: 'auth' },
    schema: {
      tags,
      security,
      body: deleteAccountInput,
      response: { 204: z.null(), 400: errorResponse, 409: errorResponse, 429: errorResponse },
    },
    handler: async (req, reply) => {
      const { user } = requireUser(req);
      await service.deleteAccount(user, req.body, rateLimiter.signIn(user.email, req.ip));
      return reply.code(204).send(null);
    },
  });

  r.get('/api/me/notification-preferences', {
    config: { auth: 'user' },
    schema: { tags, security, response: { 200: notificationPreferencesDto } },
    handler: async (req) => service.notificationPreferences(requireUser(req).user),
  });

  r.put('/api/me/notification-preferences', {
    config: { auth: 'user' },
    schema: {
      tags,
      security,
      body: notificationPreferencesDto,
      response: { 200: notificationPreferencesDto, 400: errorResponse },
    },
    handler: async (req) => service.setNotificationPreferences(requireUser(req).userId, req.body),
  });
}
