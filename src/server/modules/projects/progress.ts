import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

/**
 * Sets a project's progress to the rounded percent of its completed tasks (0 with no tasks) and
 * returns it. Call inside the transaction that changed the project's tasks.
 */
export async function recomputeProgress(db: DbOrTx, projectId: string): Promise<number> {
  const result = (await db.execute(sql`
    update projects set progress = coalesce((
      select round(100.0 * count(*) filter (where status = 'completed') / nullif(count(*), 0))::int
      from tasks where project_id = ${projectId}
    ), 0)
    where id = ${projectId}
    returning progress`)) as unknown as { rows: { progress: number }[] };
  return Number(result.rows[0]?.progress ?? 0);
}
