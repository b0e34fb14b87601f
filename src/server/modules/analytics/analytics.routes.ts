import type { FastifyInstance } from 'fastify';

/** GET /api/analytics (issue 24). Being built. */
export function registerAnalytics(_app: FastifyInstance): void {}
