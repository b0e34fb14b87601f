import type { FastifyInstance } from 'fastify';

/**
 * Feature modules register their routes here. Each module owns its folder:
 * modules/<name>/<name>.routes.ts -> .service.ts -> .repo.ts
 */
export function registerModules(_app: FastifyInstance): void {}
