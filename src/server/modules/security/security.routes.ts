import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import {
  disableTwoFactorInput,
  enableTwoFactorInput,
  recoveryCodesDto,
  revokeOthersInput,
  revokeOthersResponse,
  sessionListDto,
  type TwoFactorReauthInput,
  twoFactorReauthInput,
  twoFactorSetupDto,
  twoFactorStatusDto,
} from '../../../domain/schemas/security';
import { type AuthContext, requireUser, typed } from '../../lib/http';
import { auditByOf } from '../audit';
import { DEFAULT_SESSION_POLICY } from '../auth';
import { SessionsService } from './sessions.service';

/** Settings → Security: the caller's sessions, and two-factor sign-in. Every route is the caller's own. */
export function registerSecurity(app: FastifyInstance): void {
  const { database, config, auth, twoFactor } = app.deps;
  const sessions = new SessionsService(database.db, config.sessions ?? DEFAULT_SESSION_POLICY, auth);
  const r = typed(app);
  const tags = ['security'];

  r.get('/api/me/sessions', {
    config: { auth: 'user' },
    schema: { tags, response: { 200: sessionListDto } },
    handler: async (req) => {
      const { userId, sessionId } = requireUser(req);
      return sessions.list(userId, sessionId);
    },
  });

  r.delete('/api/me/sessions/:id', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, response: { 204: z.null(), 404: errorResponse } },
    handler: async (req, reply) => {
      await sessions.revoke(requireUser(req).userId, req.params.id);
      return reply.code(204).send(null);
    },
  });

  // The body may be left out (nothing but the sessions then); `revokeTokens` revokes API tokens and the calendar feed too.
  r.post('/api/me/sessions/revoke-others', {
    config: { auth: 'user' },
    schema: { tags, body: revokeOthersInput.nullish(), response: { 200: revokeOthersResponse, 400: errorResponse } },
    handler: async (req) => {
      const { userId, sessionId } = requireUser(req);
      const revokeTokens = req.body?.revokeTokens ?? false;
      return { revoked: await sessions.revokeOthers(userId, sessionId, revokeTokens, auditByOf(req)) };
    },
  });

  r.get('/api/me/2fa', {
    config: { auth: 'user' },
    schema: { tags, response: { 200: twoFactorStatusDto } },
    handler: async (req) => twoFactor.status(requireUser(req).user),
  });

  /**
   * A POST step that asks for the password again first (when the account has one); its failures count like a sign-in's.
   */
  const reauthenticatedStep = (
    url: string,
    answer: typeof twoFactorSetupDto | typeof recoveryCodesDto,
    step: (user: AuthContext['user'], input: TwoFactorReauthInput, ip: string) => Promise<z.output<typeof answer>>,
  ) =>
    r.post(url, {
      config: { auth: 'user' },
      schema: {
        tags,
        body: twoFactorReauthInput,
        response: { 200: answer, 400: errorResponse, 409: errorResponse, 429: errorResponse },
      },
      handler: async (req) => step(requireUser(req).user, req.body, req.ip),
    });

  reauthenticatedStep('/api/me/2fa/setup', twoFactorSetupDto, (user, input, ip) => twoFactor.setup(user, input, ip));

  r.post('/api/me/2fa/enable', {
    config: { auth: 'user' },
    schema: { tags, body: enableTwoFactorInput, response: { 200: recoveryCodesDto, 400: errorResponse, 409: errorResponse } },
    handler: async (req) => {
      return twoFactor.enable(requireUser(req).user, req.body.code, req.ip);
    },
  });

  // Ten new recovery codes; the old ones stop working.
  reauthenticatedStep('/api/me/2fa/recovery-codes', recoveryCodesDto, (user, input, ip) =>
    twoFactor.regenerateRecoveryCodes(user, input, ip),
  );

  r.post('/api/me/2fa/disable', {
    config: { auth: 'user' },
    schema: { tags, body: disableTwoFactorInput, response: { 204: z.null(), 400: errorResponse, 409: errorResponse } },
    handler: async (req, reply) => {
      await twoFactor.disable(requireUser(req).user, req.body, req.ip);
      return reply.code(204).send(null);
    },
  });
}
