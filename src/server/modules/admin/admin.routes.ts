import type { FastifyInstance } from 'fastify';
import {
  adminOverviewDto,
  adminUserDto,
  adminUsersQuery,
  adminUsersResponse,
  updateAdminUserInput,
} from '../../../domain/schemas/admin';
import { errorResponse, idParams } from '../../../domain/schemas/common';
import { actorOf, typed } from '../../lib/http';
import { AdminService } from './admin.service';

/** /api/admin/*: system role super_admin only (the global auth hook answers 401/403). */
export function registerAdmin(app: FastifyInstance): void {
  const service = new AdminService(app.deps.database, app.deps.config, app.deps.changes);
  const r = typed(app);

  r.get('/api/admin/overview', {
    config: { auth: 'super_admin' },
    schema: {
      tags: ['admin'],
      security: [{ bearer: [] }],
      response: { 200: adminOverviewDto, 401: errorResponse, 403: errorResponse },
    },
    handler: async () => service.overview(),
  });

  r.get('/api/admin/users', {
    config: { auth: 'super_admin' },
    schema: {
      tags: ['admin'],
      security: [{ bearer: [] }],
      querystring: adminUsersQuery,
      response: { 200: adminUsersResponse, 401: errorResponse, 403: errorResponse },
    },
    handler: async (req) => ({ users: await service.searchUsers(req.query.q) }),
  });

  r.patch('/api/admin/users/:id', {
    config: { auth: 'super_admin' },
    schema: {
      tags: ['admin'],
      security: [{ bearer: [] }],
      params: idParams,
      body: updateAdminUserInput,
      response: { 200: adminUserDto, 401: errorResponse, 403: errorResponse, 404: errorResponse },
    },
    handler: async (req) => service.setActive(actorOf(req), req.params.id, req.body.isActive),
  });
}
