import type { FastifyInstance, FastifyReply } from 'fastify';
import { auditPageDto, auditQuery } from '../../../domain/schemas/audit';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import { requireUser, typed } from '../../lib/http';
import { startAuditRetention } from './audit.retention';
import { AuditService } from './audit.service';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

/** The CSV answer: an attachment, kept by no cache (no-store, as every /api answer: it lists addresses and who did what). */
function sendCsv(reply: FastifyReply, name: string, body: string) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}"`)
    .send(body);
}

const csvDescription =
  'The same rows as the JSON route with the same filters (every page, newest first, at most 50,000), as an RFC 4180 CSV document; cells that a spreadsheet would run as a formula start with an apostrophe.';

/**
 * The audit log, read-only (issue 26): GET only, there is no route that writes, changes or deletes a row. The super
 * admin's log is everything; a team's is its rows, for its owner and admins.
 */
export function registerAudit(app: FastifyInstance): void {
  const service = new AuditService(app.deps.database.db);
  const r = typed(app);
  const tags = ['audit'];
  const security = [{ bearer: [] }];

  r.get('/api/admin/audit', {
    config: { auth: 'super_admin' },
    schema: { tags, security, querystring: auditQuery, response: { 200: auditPageDto, ...errors } },
    handler: async (req) => service.page(req.query),
  });

  r.get('/api/admin/audit.csv', {
    config: { auth: 'super_admin' },
    schema: { tags, security, description: csvDescription, querystring: auditQuery, response: errors },
    handler: async (req, reply) => sendCsv(reply as FastifyReply, 'crewboard-audit.csv', await service.csv(req.query)),
  });

  r.get('/api/teams/:id/audit', {
    config: { auth: 'user' },
    schema: { tags, security, params: idParams, querystring: auditQuery, response: { 200: auditPageDto, ...errors } },
    handler: async (req) => {
      await service.requireTeamAuditor(req.params.id, requireUser(req).userId);
      return service.page(req.query, req.params.id);
    },
  });

  r.get('/api/teams/:id/audit.csv', {
    config: { auth: 'user' },
    schema: { tags, security, description: csvDescription, params: idParams, querystring: auditQuery, response: errors },
    handler: async (req, reply) => {
      await service.requireTeamAuditor(req.params.id, requireUser(req).userId);
      const body = await service.csv(req.query, req.params.id);
      return sendCsv(reply as FastifyReply, `crewboard-team-audit-${req.params.id}.csv`, body);
    },
  });

  startAuditRetention(app, app.deps.database.db, app.deps.config.auditRetentionDays ?? 365);
}
