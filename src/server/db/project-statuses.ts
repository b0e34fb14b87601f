import { DEFAULT_STATUSES, type StatusCategory } from '../../domain/workflow';
import type { DbOrTx } from './client';
import { projectStatuses } from './schema';

/** Rows per statement: seven values each, well under PostgreSQL's 65,535 parameters. */
const CHUNK = 4000;

/** A status row to insert: one of a project's workflow, at its position. */
export interface NewStatusRow {
  projectId: string;
  key: string;
  name: string;
  category: StatusCategory;
  color: string;
  position: number;
  wipLimit: number | null;
}

/**
 * Writes statuses of new projects as given, in the caller's transaction (the caller checked them against the
 * workflow rules: an import writes the workflows its file carries through here).
 */
export async function insertStatuses(db: DbOrTx, rows: readonly NewStatusRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db.insert(projectStatuses).values(rows.slice(i, i + CHUNK));
  }
}

/**
 * Gives each new project the default workflow, `DEFAULT_STATUSES` (decision 0024), in the caller's transaction: every
 * path that creates projects calls it (the projects service, imports, the bench's seed, tests that write projects
 * directly), since a task's status must be one of its project's statuses. Migration 0011 wrote the same four, as a
 * frozen copy, for the projects that existed before it.
 */
export async function insertDefaultStatuses(db: DbOrTx, projectIds: readonly string[]): Promise<void> {
  await insertStatuses(
    db,
    projectIds.flatMap((projectId) =>
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
