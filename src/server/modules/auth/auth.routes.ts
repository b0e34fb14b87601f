import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  passwordGrantInput,
  refreshGrantInput,
  sessionDto,
  signupInput,
  signupResponse,
  tokenQuery,
  userDto,
} from '../../../domain/schemas/auth';
import { errorResponse } from '../../../domain/schemas/common';
import { AppError } from '../../lib/errors';
import { requireUser, typed } from '../../lib/http';
import { toUserDto } from '../users/users.mapper';
import type { AuthService } from './auth.service';

const tokenBody = z.union([passwordGrantInput, refreshGrantInput]);

export function authRoutes(app: FastifyInstance, auth: AuthService) {
  const r = typed(app);

  r.post('/api/auth/signup', {
    config: { auth: 'public', rateLimit: 'auth' },
    schema: { tags: ['auth'], body: signupInput, response: { 201: signupResponse, 409: errorResponse } },
    handler: async (req, reply) => {
      const user = await auth.signup(req.body);
      return reply.code(201).send({ user });
    },
  });

  r.post('/api/auth/token', {
    config: { auth: 'public', rateLimit: 'token' },
    schema: { tags: ['auth'], querystring: tokenQuery, body: tokenBody, response: { 200: sessionDto } },
    handler: async (req) => {
      const ua = req.headers['user-agent'] ?? null;
      if (req.query.grant_type === 'password') {
        const body = passwordGrantInput.safeParse(req.body);
        if (!body.success) throw new AppError('validation_failed', { fields: { email: 'email and password are required' } });
        const guard = app.deps.rateLimiter.signIn(body.data.email, req.ip);
        return auth.signInWithPassword(body.data.email, body.data.password, ua, guard);
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
