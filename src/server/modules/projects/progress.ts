import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

/**
 * Sets a project's progress to the rounded percent of its completed tasks (0 with no tasks) and
 * returns it. Call inside the transaction that changed the project's tasks.
 */
export async function recomputeProgress(db: DbOrTx, projectId: string): Promise<number> {
  // Lock the project row first, in a statement of its own (NO KEY UPDATE: it must not clash with the
  // key-share locks that inserting a task takes on its project): under READ COMMITTED the count below
  // then starts after every concurrent task change to this project has committed, so the last
  // writer always counts everything (without it, concurrent creates/moves left a stale progress).
  await db.execute(sql`select id from projects where id = ${projectId} for no key update`);
  const result = (await db.execute(sql`
    update projects set progress = coalesce((
      select round(100.0 * count(*) filter (where status = 'completed') / nullif(count(*), 0))::int
      from tasks where project_id = ${projectId}
    ), 0)
    where id = ${projectId}
    returning progress`)) as unknown as { rows: { progress: number }[] };
  return Number(result.rows[0]?.progress ?? 0);
}
