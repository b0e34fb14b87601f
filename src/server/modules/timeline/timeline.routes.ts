import type { FastifyInstance } from 'fastify';
import { errorResponse } from '../../../domain/schemas/common';
import { timelineAnswer, timelineQuery } from '../../../domain/schemas/timeline';
import { requireUser, typed } from '../../lib/http';
import { builtExactly } from '../../lib/serializer';
import { TimelineService } from './timeline.service';

/**
 * GET /api/timeline (issue 37, decision 0025): the timeline page's one read — the dated tasks overlapping a window,
 * the dependencies among them, their projects and the open unscheduled tasks — of every project the caller sees, one
 * team's or one project's (404 for a team or project they cannot see).
 */
export function registerTimeline(app: FastifyInstance): void {
  const r = typed(app);
  const service = new TimelineService(app.deps.database);

  r.get('/api/timeline', {
    config: { auth: 'user' },
    schema: {
      tags: ['timeline'],
      querystring: timelineQuery,
      response: { 200: builtExactly(timelineAnswer), 400: errorResponse, 401: errorResponse, 404: errorResponse },
    },
    handler: async (req) => service.read(requireUser(req).userId, req.query),
  });
}
