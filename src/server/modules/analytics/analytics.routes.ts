import type { FastifyInstance } from 'fastify';
import {
  analyticsDto,
  analyticsQuery,
  cumulativeFlowDto,
  cumulativeFlowQuery,
  timeAnalyticsDto,
  timeAnalyticsQuery,
} from '../../../domain/schemas/analytics';
import { errorResponse } from '../../../domain/schemas/common';
import { requireUser, typed } from '../../lib/http';
import { AnalyticsService } from './analytics.service';
import { timeAnalytics } from './time-analytics.service';

/**
 * GET /api/analytics (issue 24): the Analytics page's figures, for any signed-in user over their own teams; GET
 * /api/analytics/cumulative-flow (issue 36): one project's tasks per status and day, for its team's members (404 to
 * anyone else, as the project); GET /api/analytics/time (issue 39): time logged per week by person and project, and
 * estimate vs actual, over GET /api/analytics's scope.
 */
export function registerAnalytics(app: FastifyInstance): void {
  const r = typed(app);
  const service = new AnalyticsService(app.deps.database.db, app.deps.database.preparedDb);

  r.get('/api/analytics', {
    config: { auth: 'user' },
    schema: {
      tags: ['analytics'],
      querystring: analyticsQuery,
      response: { 200: analyticsDto, 400: errorResponse, 401: errorResponse, 404: errorResponse },
    },
    handler: async (req) => {
      const { userId, user } = requireUser(req);
      return service.get({ userId, timeZone: user.timeZone }, req.query);
    },
  });

  r.get('/api/analytics/cumulative-flow', {
    config: { auth: 'user' },
    schema: {
      tags: ['analytics'],
      querystring: cumulativeFlowQuery,
      response: { 200: cumulativeFlowDto, 400: errorResponse, 401: errorResponse, 404: errorResponse },
    },
    handler: async (req) => {
      const { userId, user } = requireUser(req);
      return service.cumulativeFlow({ userId, timeZone: user.timeZone }, req.query);
    },
  });

  r.get('/api/analytics/time', {
    config: { auth: 'user' },
    schema: {
      tags: ['analytics'],
      querystring: timeAnalyticsQuery,
      response: { 200: timeAnalyticsDto, 400: errorResponse, 401: errorResponse, 404: errorResponse },
    },
    handler: async (req) => {
      const { userId, user } = requireUser(req);
      return timeAnalytics(app.deps.database.db, { userId, timeZone: user.timeZone }, req.query);
    },
  });
}
