import type { FastifyInstance } from 'fastify';

/** /api/views (issue 23). Being built. */
export function registerSavedViews(_app: FastifyInstance): void {}
