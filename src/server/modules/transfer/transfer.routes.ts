import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import {
  crewboardExport,
  csvImportInput,
  csvPreviewDto,
  exportCsvQuery,
  importResultDto,
  teamImportResultDto,
  TRANSFER_LIMITS,
  trelloImportInput,
  trelloPreviewDto,
} from '../../../domain/schemas/transfer';
import { actorOf, requireUser, typed } from '../../lib/http';
import { TransferService } from './transfer.service';

const security = [{ bearer: [] }];
const tags = ['transfer'];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 413: errorResponse };

/** Every import: a member's upload, rate-limited, of at most the transfer body limit. */
const importRoute = { config: { auth: 'user', rateLimit: 'import' }, bodyLimit: TRANSFER_LIMITS.bodyBytes } as const;

/** A dry run answers 200 with what would be created; a real run 201 with what was. */
const importStatus = (result: object) => ('dryRun' in result ? 200 : 201);

const attachment = (reply: FastifyReply, fileName: string, type: string) =>
  reply.header('content-type', type).header('content-disposition', `attachment; filename="${fileName}"`);

/** Export a team (JSON, tasks as CSV) and import into it (Trello, CSV) or as a new team (a Crewboard export): issue 26. */
export function registerTransfer(app: FastifyInstance): void {
  const r = typed(app);
  const service = new TransferService(app.deps.database.db, app.deps.changes);

  r.get('/api/teams/:id/export', {
    config: { auth: 'user' },
    schema: {
      tags,
      security,
      summary: 'Export a team as JSON',
      description:
        "The team's projects (each with its workflow: its statuses in order), tasks (with their status keys, comments, checklists, history and custom field values), notes and custom fields, as a file `POST /api/teams/import` reads. Any active member; others get 404.",
      params: idParams,
      response: { 200: crewboardExport, ...errors },
    },
    handler: async (req, reply) => {
      const { file, fileName } = await service.exportTeam(requireUser(req).userId, req.params.id);
      attachment(reply, fileName, 'application/json; charset=utf-8');
      return file;
    },
  });

  r.get('/api/teams/:id/export.csv', {
    config: { auth: 'user' },
    schema: {
      tags,
      security,
      summary: "Export a team's tasks as CSV",
      description:
        "The team's tasks (of one project with `projectId`) with the list view's columns, as UTF-8 CSV with a byte order mark. Any active member; others get 404.",
      params: idParams,
      querystring: exportCsvQuery,
      response: errors,
    },
    handler: async (req, reply) => {
      const { csv, fileName } = await service.exportTasksCsv(requireUser(req).userId, req.params.id, req.query.projectId);
      // Text, not JSON: no response schema of the route's describes it.
      return attachment(reply as FastifyReply, fileName, 'text/csv; charset=utf-8').send(csv);
    },
  });

  r.post('/api/teams/:id/import/trello', {
    ...importRoute,
    schema: {
      tags,
      security,
      summary: 'Import a Trello board into a new project',
      description:
        'A dry run (`dryRun: true`, or no `mapping`) answers 200 with the lists, their suggested statuses, the new project\'s workflow and what would be created; with a mapping (list id → one of the four default statuses, "own" or "skip") it creates one project with the cards as tasks, in one transaction, and answers 201. A list mapped to "own" becomes a status of the project\'s workflow, named as the list, its category read from words in its name (Done, Shipped: completed; Won\'t do, Cancelled: canceled; Backlog, Icebox: backlog; Doing, In progress, Review, QA: started) or else from its place (the first lists not started, the last completed); with no list mapped to "own" the project has the default four. Card members matching a member of the team (by address or name) become assignees, others are named in the description; link attachments become links in the description; due times become days in the time zone of the caller. The board\'s custom fields (text, number, date, checkbox, list) become the team\'s custom fields (one of the same name and type is reused, its missing options added) and the cards\' values the tasks\' values. A real run writes one audit row `project.imported` and sends one `import.completed` webhook event. Any active member of the team; others get 404.',
      params: idParams,
      body: trelloImportInput,
      response: { 200: trelloPreviewDto, 201: importResultDto, ...errors },
    },
    handler: async (req, reply) => {
      const { userId, user } = requireUser(req);
      // Due times become days in the caller's time zone (Settings → Profile), UTC without one.
      const result = await service.importTrello(userId, req.params.id, req.body, actorOf(req), user.timeZone);
      return reply.code(importStatus(result)).send(result);
    },
  });

  r.post('/api/teams/:id/import/csv', {
    ...importRoute,
    schema: {
      tags,
      security,
      summary: 'Import tasks from CSV',
      description:
        "A dry run (`dryRun: true`, or no `mapping`) answers 200 with the headers, a suggested mapping, the first rows as they would be created and the row errors by line. A column maps to a task field, to one of the team's custom fields (`field:<id>`: offered when the header is the field's name; select options by name, multi-select names split at ; or ,, a person by a member's email; a value that does not fit is a warning and left empty, an unknown option is never created) or to `new_field` (a new field named after the header: Number when every value is a number, else Text); otherwise the tasks are created in one transaction (in `projectId`, or a new project) and the answer is 201, with one audit row `project.imported` and one `import.completed` webhook event. Any active member of the team; others get 404.",
      params: idParams,
      body: csvImportInput,
      response: { 200: csvPreviewDto, 201: importResultDto, ...errors },
    },
    handler: async (req, reply) => {
      const result = await service.importCsv(requireUser(req).userId, req.params.id, req.body, actorOf(req));
      return reply.code(importStatus(result)).send(result);
    },
  });

  r.post('/api/teams/import', {
    ...importRoute,
    schema: {
      tags,
      security,
      summary: 'Import a Crewboard export as a new team',
      description:
        'A file made by `GET /api/teams/{id}/export` becomes a new team owned by the caller, in one transaction. Each project gets the workflow the file gives it and every task keeps its status key; a file from before per-project workflows (no `statuses`) gives each project the default four. Members are not added; only the caller is linked as an author, creator or actor: every other person in the file is named in the text ("Originally by Ada Lovelace on 2019-06-03:"). One audit row `team.imported`.',
      body: z.unknown(),
      response: { 201: teamImportResultDto, ...errors },
    },
    handler: async (req, reply) =>
      reply.code(201).send(await service.importTeam(requireUser(req).userId, req.body, actorOf(req))),
  });
}
