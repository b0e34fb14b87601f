import type { FastifyInstance } from 'fastify';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import { activityListDto } from '../../../domain/schemas/task-detail';
import { requireUser, typed } from '../../lib/http';
import { TaskActivityService } from './task-activity.service';

export function registerTaskActivity(app: FastifyInstance): void {
  const r = typed(app);
  const service = new TaskActivityService(app.deps.database.db);

  r.get('/api/tasks/:id/activity', {
    config: { auth: 'user' },
    schema: {
      tags: ['tasks'],
      params: idParams,
      response: { 200: activityListDto, 400: errorResponse, 404: errorResponse },
    },
    handler: async (req) => service.list(requireUser(req).userId, req.params.id),
  });
}
