import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import { addProjectGuestInput, projectGuestDto, projectGuestListDto, projectGuestParams } from '../../../domain/schemas/team';
import { actorOf, requireUser, typed } from '../../lib/http';
import { ProjectGuestsService } from './project-guests.service';

const errors = { 400: errorResponse, 403: errorResponse, 404: errorResponse };

/** /api/projects/:id/guests (issue 41): who of the team's guests sees the project. */
export function registerProjectGuests(app: FastifyInstance): void {
  const service = new ProjectGuestsService(app.deps.database.db, app.deps.changes);
  const r = typed(app);
  const tags = ['projects'];

  r.get('/api/projects/:id/guests', {
    config: { auth: 'user' },
    schema: {
      tags,
      description: "The project's guests (issue 41). Members, admins, the owner and viewers of its team; a guest gets 403.",
      params: idParams,
      response: { 200: projectGuestListDto, ...errors },
    },
    handler: async (req) => service.list(requireUser(req).userId, req.params.id),
  });

  r.post('/api/projects/:id/guests', {
    config: { auth: 'user' },
    schema: {
      tags,
      description:
        'Gives the project to a guest of its team (an active member with the role guest; else 400 `not_a_guest`). Owner and admins.',
      params: idParams,
      body: addProjectGuestInput,
      response: { 201: projectGuestDto, ...errors },
    },
    handler: async (req, reply) => reply.code(201).send(await service.add(actorOf(req), req.params.id, req.body)),
  });

  r.delete('/api/projects/:id/guests/:userId', {
    config: { auth: 'user' },
    schema: {
      tags,
      description: 'Takes the project from one of its guests (404 when they are not one). Owner and admins.',
      params: projectGuestParams,
      response: { 204: z.null(), ...errors },
    },
    handler: async (req, reply) => {
      await service.remove(actorOf(req), req.params.id, req.params.userId);
      return reply.code(204).send(null);
    },
  });
}
