import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ACCOUNT_MSG } from '../../../domain/account-messages';
import { forgotPasswordInput, mailAcceptedResponse, resetPasswordInput, verifyEmailInput } from '../../../domain/schemas/auth';
import { linkStatusDto, linkStatusQuery } from '../../../domain/schemas/account-links';
import { errorResponse } from '../../../domain/schemas/common';
import { actorOf, requireUser, typed } from '../../lib/http';
import { EmailVerificationService } from './email-verification.service';
import { isLinkUsable } from './link-status.service';
import { PasswordResetService } from './password-reset.service';

/**
 * The account's emailed links: verify the address, resend that link, forgot password, reset password, and whether a
 * link still works.
 */
export function registerAccountLinks(app: FastifyInstance): void {
  const { config, database, changes, rateLimiter } = app.deps;
  const verification = new EmailVerificationService(database.db, changes, rateLimiter, config);
  const reset = new PasswordResetService(database.db, changes, rateLimiter);
  const r = typed(app);
  const tags = ['auth'];

  r.post('/api/auth/forgot-password', {
    config: { auth: 'public', rateLimit: 'mailLinkIp' },
    schema: { tags, body: forgotPasswordInput, response: { 202: mailAcceptedResponse, 400: errorResponse, 429: errorResponse } },
    handler: async (req, reply) => {
      await reset.request(req.body.email, req.ip);
      return reply.code(202).send({ message: ACCOUNT_MSG.forgotPasswordSent });
    },
  });

  r.post('/api/auth/reset-password', {
    config: { auth: 'public', rateLimit: 'auth' },
    schema: { tags, body: resetPasswordInput, response: { 204: z.null(), 400: errorResponse } },
    handler: async (req, reply) => {
      await reset.reset(req.body.token, req.body.password, req.ip);
      return reply.code(204).send(null);
    },
  });

  // Read-only: the page of an emailed link asks when it opens, so a used or expired link says so before anyone types.
  r.get('/api/auth/link-status', {
    config: { auth: 'public', rateLimit: 'auth' },
    schema: { tags, querystring: linkStatusQuery, response: { 200: linkStatusDto, 400: errorResponse, 429: errorResponse } },
    handler: async (req) => ({ valid: await isLinkUsable(database.db, req.query.purpose, req.query.token) }),
  });

  r.post('/api/auth/verify-email', {
    config: { auth: 'public', rateLimit: 'auth' },
    schema: { tags, body: verifyEmailInput, response: { 204: z.null(), 400: errorResponse } },
    handler: async (req, reply) => {
      await verification.verify(req.body.token);
      return reply.code(204).send(null);
    },
  });

  r.post('/api/auth/resend-verification', {
    config: { auth: 'user', rateLimit: 'mailLinkIp' },
    schema: { tags, response: { 202: mailAcceptedResponse, 409: errorResponse, 429: errorResponse } },
    handler: async (req, reply) => {
      const { user } = requireUser(req);
      await verification.resend(actorOf(req), user);
      return reply.code(202).send({ message: ACCOUNT_MSG.verificationSent(user.email) });
    },
  });
}
