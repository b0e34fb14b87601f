import type { FastifyInstance } from 'fastify';
import { errorResponse } from '../../../domain/schemas/common';
import { searchQuery, searchResultDto } from '../../../domain/schemas/search';
import { requireUser, typed } from '../../lib/http';
import { SearchService } from './search.service';

/** GET /api/search (issue 23): everything the caller may see, ranked and grouped by kind. */
export function registerSearch(app: FastifyInstance): void {
  const r = typed(app);
  const service = new SearchService(app.deps.database.preparedDb);

  r.get('/api/search', {
    config: { auth: 'user' },
    schema: {
      tags: ['search'],
      querystring: searchQuery,
      response: { 200: searchResultDto, 400: errorResponse },
    },
    handler: async (req) => service.search(requireUser(req).userId, req.query),
  });
}
