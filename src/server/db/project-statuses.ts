import { DEFAULT_STATUSES } from '../../domain/workflow';
import type { DbOrTx } from './client';
import { projectStatuses } from './schema';

/** Projects per statement: four rows of seven values each, well under PostgreSQL's 65,535 parameters. */
const CHUNK = 1000;

/**
 * Gives each new project the default workflow, `DEFAULT_STATUSES` (decision 0024), in the caller's transaction: every
 * path that creates projects calls it (the projects service, imports, the bench's seed, tests that write projects
 * directly), since a task's status must be one of its project's statuses. Migration 0011 wrote the same four, as a
 * frozen copy, for the projects that existed before it.
 */
export async function insertDefaultStatuses(db: DbOrTx, projectIds: readonly string[]): Promise<void> {
  for (let i = 0; i < projectIds.length; i += CHUNK) {
    await db.insert(projectStatuses).values(
      projectIds.slice(i, i + CHUNK).flatMap((projectId) =>
        DEFAULT_STATUSES.map(({ key, name, category, color, position, wipLimit }) => ({
          projectId,
          key,
          name,
          category,
          color,
          position,
          wipLimit,
        })),
      ),
    );
  }
}
