import type { FastifyInstance, onSendHookHandler } from 'fastify';
import { z } from 'zod';
import { OUTSIDE_LIMITS } from '../../../domain/constants';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import {
  formDto,
  formInput,
  formListDto,
  formPatch,
  publicFormDto,
  publicFormSubmission,
  publicFormSubmittedDto,
  requestStatusDto,
  shareTokenParams,
} from '../../../domain/schemas/outside';
import { actorOf, requireUser, typed } from '../../lib/http';
import { Sealer } from '../oidc';
import { TasksService } from '../tasks';
import { FormsService } from './forms.service';

const tags = ['forms'];
const errors = { 400: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const publicErrors = { 400: errorResponse, 404: errorResponse, 410: errorResponse, 429: errorResponse };

/**
 * Every answer of the public routes, errors included: not indexed, the token in the URL not sent on as a referrer
 * (and, as every /api answer, `Cache-Control: no-store`).
 */
const publicHeaders: onSendHookHandler = async (_req, reply, payload) => {
  reply.header('x-robots-tag', 'noindex, nofollow').header('referrer-policy', 'no-referrer');
  return payload;
};

/**
 * A project's request forms (issue 40, decision 0028): managed under the project by its owners and its team's admins,
 * listed by its members; their public pages' API (`/api/public-forms/:token`) and the requesters' status links
 * (`/api/requests/:token`), each token a capability for one form or one request.
 */
export function registerForms(app: FastifyInstance): void {
  const { database, config, changes, rateLimiter } = app.deps;
  const service = new FormsService({
    db: database.db,
    changes,
    sealer: new Sealer(config.authSecret, 'form-token'),
    rateLimiter,
    tasks: new TasksService(database.db, changes, database),
    publicUrl: config.publicUrl,
    mailConfigured: config.mail.smtpUrl !== null,
  });
  const r = typed(app);

  r.get('/api/projects/:id/forms', {
    config: { auth: 'user' },
    schema: {
      tags,
      description:
        "The project's request forms, each with its public link (`url`). Every member of the project's team may list them; only project owners and team admins change them.",
      params: idParams,
      response: { 200: formListDto, 400: errorResponse, 404: errorResponse },
    },
    handler: async (req) => service.list(requireUser(req).userId, req.params.id),
  });

  r.post('/api/projects/:id/forms', {
    config: { auth: 'user' },
    schema: {
      tags,
      description: `A new form (at most ${OUTSIDE_LIMITS.formsPerProject} a project) and its public link. Field keys: title (always asked, always required), description, email, priority, dueDate, or the id of a custom field of the team for this project (not a person field). \`status\`: one of the project's (default its first); \`assigneeId\`: a member of the team.`,
      params: idParams,
      body: formInput,
      response: { 201: formDto, ...errors },
    },
    handler: async (req, reply) => reply.code(201).send(await service.create(actorOf(req), req.params.id, req.body)),
  });

  r.patch('/api/forms/:id', {
    config: { auth: 'user' },
    schema: {
      tags,
      description: 'Changes any of the form\'s settings; `{ "open": false }` closes it (its page then answers 410).',
      params: idParams,
      body: formPatch,
      response: { 200: formDto, ...errors },
    },
    handler: async (req) => service.update(actorOf(req), req.params.id, req.body),
  });

  r.post('/api/forms/:id/reset', {
    config: { auth: 'user' },
    schema: {
      tags,
      description: 'A new public link for the form: the old one answers 404 at once.',
      params: idParams,
      response: { 200: formDto, 400: errorResponse, 403: errorResponse, 404: errorResponse },
    },
    handler: async (req) => service.reset(actorOf(req), req.params.id),
  });

  r.delete('/api/forms/:id', {
    config: { auth: 'user' },
    schema: { tags, params: idParams, response: { 204: z.null(), 400: errorResponse, 403: errorResponse, 404: errorResponse } },
    handler: async (req, reply) => {
      await service.remove(actorOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  });

  r.get('/api/public-forms/:token', {
    config: { auth: 'public', rateLimit: 'publicRead' },
    onSend: publicHeaders,
    schema: {
      tags,
      description:
        "A form's definition for its public page, without signing in: its name, intro, the project's name and the fields to fill. 404 for an unknown or reset link, 410 when the form is closed.",
      params: shareTokenParams,
      response: { 200: publicFormDto, ...publicErrors },
    },
    handler: async (req) => service.publicForm(req.params.token),
  });

  r.post('/api/public-forms/:token', {
    config: { auth: 'public', rateLimit: 'publicRead' },
    bodyLimit: OUTSIDE_LIMITS.submissionBytes,
    onSend: publicHeaders,
    schema: {
      tags,
      description:
        "Submits the form: a task in the project. `values` by field key (a required one missing, or a bad value: 400 naming the field). `website` must stay empty (any value is answered 201 and dropped). At most 10 submissions an IP a form in 10 minutes and 100 a form an hour (429). With an `email` and mail set up, a confirmation mail links to the request's status.",
      params: shareTokenParams,
      body: publicFormSubmission,
      response: { 201: publicFormSubmittedDto, ...publicErrors },
    },
    handler: async (req, reply) => {
      await service.submit(req.params.token, req.body, req.ip);
      return reply.code(201).send({ received: true as const });
    },
  });

  r.get('/api/requests/:token', {
    config: { auth: 'public', rateLimit: 'publicRead' },
    onSend: publicHeaders,
    schema: {
      tags,
      description:
        "A submitted request's status, for its requester (the link in the confirmation mail), without signing in: the title, the project's name, the status's name and category, when it was received and last changed.",
      params: shareTokenParams,
      response: { 200: requestStatusDto, 400: errorResponse, 404: errorResponse, 429: errorResponse },
    },
    handler: async (req) => service.requestStatus(req.params.token),
  });
}
