import type { FastifyInstance } from 'fastify';

/** /api/me/calendar-feed and the feed itself (issue 23). Being built. */
export function registerCalendar(_app: FastifyInstance): void {}
