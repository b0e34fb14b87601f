import type { FastifyInstance } from 'fastify';
import { registerTeams } from './teams/teams.routes';
import { registerProjects } from './projects/projects.routes';
import { registerTasks } from './tasks/tasks.routes';

/**
 * Feature modules register their routes here. Each module owns its folder:
 * modules/<name>/<name>.routes.ts -> .service.ts -> .repo.ts
 */
export function registerModules(app: FastifyInstance): void {
  registerTeams(app);
  registerTasks(app);
  registerProjects(app);
}
