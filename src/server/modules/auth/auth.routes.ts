import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  directoryPasswordGrantInput,
  passwordGrantInput,
  refreshGrantInput,
  sessionDto,
  signupInput,
  signupResponse,
  tokenQuery,
  userDto,
} from '../../../domain/schemas/auth';
import { errorResponse } from '../../../domain/schemas/common';
import { fieldErrors } from '../../../domain/forms';
import { mfaGrantInput, mfaRequiredResponse } from '../../../domain/schemas/security';
import { AppError } from '../../lib/errors';
import { requireUser, typed } from '../../lib/http';
import { toUserDto } from '../users';
import type { AuthService } from './auth.service';

const tokenBody = z.union([passwordGrantInput, refreshGrantInput, mfaGrantInput]);
/** With directory sign-in on, the password grant's `email` may be a directory username (issue 41). */
const directoryTokenBody = z.union([directoryPasswordGrantInput, refreshGrantInput, mfaGrantInput]);

export function authRoutes(app: FastifyInstance, auth: AuthService) {
  const r = typed(app);

  r.post('/api/auth/signup', {
    config: { auth: 'public', rateLimit: 'auth' },
    schema: { tags: ['auth'], body: signupInput, response: { 201: signupResponse, 403: errorResponse, 409: errorResponse } },
    handler: async (req, reply) => {
      const user = await auth.signup(req.body, req.ip);
      return reply.code(201).send({ user });
    },
  });

  r.post('/api/auth/token', {
    config: { auth: 'public', rateLimit: 'token' },
    // 401 `mfa_required` with an mfa_token: a right password for an account with two-factor sign-in on.
    schema: {
      tags: ['auth'],
      querystring: tokenQuery,
      body: auth.hasDirectory ? directoryTokenBody : tokenBody,
      response: { 200: sessionDto, 401: mfaRequiredResponse },
    },
    handler: async (req, reply) => {
      const ua = req.headers['user-agent'] ?? null;
      if (req.query.grant_type === 'password') {
        const body = (auth.hasDirectory ? directoryPasswordGrantInput : passwordGrantInput).safeParse(req.body);
        if (!body.success) throw new AppError('validation_failed', { fields: { email: 'email and password are required' } });
        const guard = app.deps.rateLimiter.signIn(body.data.email, req.ip);
        const result = await auth.signInWithPassword(body.data.email, body.data.password, ua, guard, req.ip);
        if ('session' in result) return result.session;
        return reply.code(401).send(await app.deps.twoFactor.challenge(result.secondFactor, result.method));
      }
      if (req.query.grant_type === 'mfa') {
        const body = mfaGrantInput.safeParse(req.body);
        if (!body.success) throw new AppError('validation_failed', { fields: fieldErrors(body.error.issues) });
        return app.deps.twoFactor.signIn(body.data.mfa_token, body.data.code, { userAgent: ua, ip: req.ip });
      }
      const body = refreshGrantInput.safeParse(req.body);
      if (!body.success) throw new AppError('validation_failed', { fields: { refresh_token: 'refresh_token is required' } });
      return auth.refresh(body.data.refresh_token);
    },
  });

  r.post('/api/auth/logout', {
    config: { auth: 'user' },
    schema: { tags: ['auth'], response: { 204: z.null() } },
    handler: async (req, reply) => {
      const { userId, sessionId } = requireUser(req);
      await auth.logout(userId, sessionId);
      return reply.code(204).send(null);
    },
  });

  r.get('/api/auth/user', {
    config: { auth: 'user' },
    schema: { tags: ['auth'], response: { 200: userDto } },
    handler: async (req) => toUserDto(requireUser(req).user),
  });
}
