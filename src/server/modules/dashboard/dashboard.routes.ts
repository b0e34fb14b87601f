import type { FastifyInstance } from 'fastify';
import { errorResponse } from '../../../domain/schemas/common';
import { dashboardDto, dashboardQuery } from '../../../domain/schemas/dashboard';
import { requireUser, typed } from '../../lib/http';
import { DashboardService } from './dashboard.service';

export function registerDashboard(app: FastifyInstance): void {
  const r = typed(app);
  const service = new DashboardService(app.deps.database.db);

  r.get('/api/dashboard', {
    config: { auth: 'user' },
    schema: {
      tags: ['dashboard'],
      querystring: dashboardQuery,
      response: { 200: dashboardDto, 400: errorResponse, 401: errorResponse },
    },
    // Without the caller's date, the server's UTC date decides what is overdue.
    handler: async (req) => {
      const { userId, user } = requireUser(req);
      return service.get(userId, req.query.today ?? new Date().toISOString().slice(0, 10), user.timeZone);
    },
  });
}
