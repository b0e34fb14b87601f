import type { FastifyInstance } from 'fastify';

/** GET /api/search (issue 23). Being built. */
export function registerSearch(_app: FastifyInstance): void {}
