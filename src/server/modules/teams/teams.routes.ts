import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import {
  changeRoleInput,
  createTeamInput,
  invitationDto,
  inviteInput,
  listTeamsQuery,
  myInvitationsDto,
  myInvitationsQuery,
  respondInvitationInput,
  teamDto,
  teamMemberDto,
  teamMemberParams,
  transferOwnershipInput,
  updateTeamAccessInput,
  updateTeamInput,
} from '../../../domain/schemas/team';
import { requireUser, typed } from '../../lib/http';
import { TeamsService } from './teams.service';

/** The signed-in caller and the address they call from (recorded in the audit log). */
const caller = (req: FastifyRequest) => {
  const { user, apiToken } = requireUser(req);
  return { ...user, ip: req.ip, apiTokenId: apiToken?.id ?? null };
};

const errors = { 400: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };

/** /api/teams, /api/teams/:id/members, /api/teams/:id/invitations and /api/invitations. */
export function registerTeams(app: FastifyInstance): void {
  const { config, database, changes, rateLimiter, saml } = app.deps;
  const teams = new TeamsService(database.db, changes, rateLimiter, config.invitationTtlDays, config);
  const r = typed(app);
  const tags = ['teams'];

  r.get('/api/teams', {
    config: { auth: 'user' },
    schema: { tags, querystring: listTeamsQuery, response: { 200: z.array(teamDto), 400: errorResponse } },
    handler: async (req) => teams.list(requireUser(req).user, req.query.q),
  });

  r.post('/api/teams', {
    config: { auth: 'user' },
    schema: { tags, body: createTeamInput, response: { 201: teamDto, 400: errorResponse } },
    handler: async (req, reply) => reply.code(201).send(await teams.create(requireUser(req).user, req.body)),
  });

  r.get('/api/teams/:id', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, response: { 200: teamDto, ...errors } },
    handler: async (req) => teams.get(requireUser(req).user, req.params.id),
  });

  r.patch('/api/teams/:id', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, body: updateTeamInput, response: { 200: teamDto, ...errors } },
    handler: async (req) => teams.update(requireUser(req).user, req.params.id, req.body),
  });

  r.patch('/api/teams/:id/access', {
    config: { auth: 'user' },
    schema: {
      tags,
      description:
        "The team's access rules (issue 41): whether viewers may comment, whether single sign-on is required. Owner and admins.",
      params: idParams,
      body: updateTeamAccessInput,
      response: { 200: teamDto, ...errors },
    },
    handler: async (req) => teams.setAccess(caller(req), req.params.id, req.body, () => saml.isConfigured()),
  });

  r.delete('/api/teams/:id', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, response: { 204: z.null(), ...errors } },
    handler: async (req, reply) => {
      await teams.remove(caller(req), req.params.id);
      return reply.code(204).send(null);
    },
  });

  r.post('/api/teams/:id/leave', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, response: { 204: z.null(), ...errors } },
    handler: async (req, reply) => {
      await teams.leave(caller(req), req.params.id);
      return reply.code(204).send(null);
    },
  });

  // Only the owner; the member named becomes the owner and the caller an admin (TeamsService.transferOwnership).
  r.post('/api/teams/:id/transfer-ownership', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, body: transferOwnershipInput, response: { 200: teamDto, ...errors } },
    handler: async (req) => teams.transferOwnership(caller(req), req.params.id, req.body.memberId),
  });

  r.patch('/api/teams/:id/members/:memberId', {
    config: { auth: 'user' },
    schema: { tags, params: teamMemberParams, body: changeRoleInput, response: { 200: teamMemberDto, ...errors } },
    handler: async (req) => teams.changeRole(caller(req), req.params.id, req.params.memberId, req.body.role),
  });

  r.delete('/api/teams/:id/members/:memberId', {
    config: { auth: 'user' },
    schema: { tags, params: teamMemberParams, response: { 204: z.null(), ...errors } },
    handler: async (req, reply) => {
      await teams.removeMember(caller(req), req.params.id, req.params.memberId);
      return reply.code(204).send(null);
    },
  });

  r.get('/api/teams/:id/invitations', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, response: { 200: z.array(invitationDto), ...errors } },
    handler: async (req) => teams.listTeamInvitations(requireUser(req).user, req.params.id),
  });

  r.post('/api/teams/:id/invitations', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, body: inviteInput, response: { 201: invitationDto, ...errors, 429: errorResponse } },
    handler: async (req, reply) => reply.code(201).send(await teams.invite(caller(req), req.params.id, req.body)),
  });

  r.get('/api/invitations', {
    config: { auth: 'user' },
    schema: { tags: ['invitations'], querystring: myInvitationsQuery, response: { 200: myInvitationsDto, 400: errorResponse } },
    handler: async (req) => teams.myInvitations(requireUser(req).user, req.query),
  });

  r.delete('/api/invitations/:id', {
    config: { auth: 'user' },
    schema: { tags: ['invitations'], params: idParams, response: { 204: z.null(), ...errors } },
    handler: async (req, reply) => {
      await teams.cancelInvitation(caller(req), req.params.id);
      return reply.code(204).send(null);
    },
  });

  r.post('/api/invitations/:id/respond', {
    config: { auth: 'user' },
    schema: {
      tags: ['invitations'],
      params: idParams,
      body: respondInvitationInput,
      response: { 200: invitationDto, ...errors },
    },
    handler: async (req) => teams.respond(caller(req), req.params.id, req.body.accept, req.body.proof),
  });
}
