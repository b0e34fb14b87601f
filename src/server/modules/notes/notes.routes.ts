import type { FastifyInstance } from 'fastify';

/** Issue 2x: placeholder until this module lands. */
export function registerNotes(_app: FastifyInstance): void {}
