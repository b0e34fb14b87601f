import { sql } from 'drizzle-orm';
import type { DbOrTx } from './client';

/**
 * Recounts every project's task counters (in all and per status) and progress from its tasks. Triggers on `tasks`
 * (migration 0003) keep them current on every change; this is for after a restore, which writes
 * projects with their stored counters and then their tasks (counted a second time by the trigger).
 */
export async function recountAllProjects(db: DbOrTx): Promise<void> {
  await db.execute(sql`
    update projects p set
      task_count = coalesce(c.n, 0),
      todo_count = coalesce(c.todo, 0),
      in_progress_count = coalesce(c.doing, 0),
      review_count = coalesce(c.review, 0),
      done_count = coalesce(c.done, 0),
      progress = coalesce(round(100.0 * c.done / nullif(c.n, 0))::int, 0)
    from projects p2
    left join (
      select project_id, count(*)::int as n,
        (count(*) filter (where status = 'todo'))::int as todo,
        (count(*) filter (where status = 'in_progress'))::int as doing,
        (count(*) filter (where status = 'review'))::int as review,
        (count(*) filter (where status = 'completed'))::int as done
      from tasks group by project_id
    ) c on c.project_id = p2.id
    where p.id = p2.id`);
}
