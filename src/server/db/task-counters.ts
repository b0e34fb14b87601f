import { eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx, Tx } from './client';
import { projectTaskCounts } from './schema';

const sumOf = (column: AnyPgColumn) => sql<number>`coalesce(sum(${column}), 0)::int`;

/** A counter row's tasks, whatever their status. */
const rowTotal = sql`${projectTaskCounts.todoCount} + ${projectTaskCounts.inProgressCount} + ${projectTaskCounts.reviewCount} + ${projectTaskCounts.doneCount}`;

/** The sums of a set of counter rows: tasks per status, and in all (0 when there are none). */
export const countSums = {
  todo: sumOf(projectTaskCounts.todoCount),
  in_progress: sumOf(projectTaskCounts.inProgressCount),
  review: sumOf(projectTaskCounts.reviewCount),
  completed: sumOf(projectTaskCounts.doneCount),
};
export const countTotal = sql<number>`coalesce(sum(${rowTotal}), 0)::int`;

/**
 * One project's task count and progress (the rule of domain/progress.ts `projectProgress`: the share
 * of its tasks completed, in whole percent), as a subquery on the project `projectId` names, for a
 * lateral join: the sum of its counter rows (migration 0004), never a count of its tasks.
 */
export function projectTotals(db: DbOrTx, projectId: AnyPgColumn | SQL) {
  return db
    .select({
      taskCount: sql<number>`${countTotal}`.as('counted_tasks'),
      progress:
        sql<number>`coalesce(round(100.0 * sum(${projectTaskCounts.doneCount}) / nullif(sum(${rowTotal}), 0))::int, 0)`.as(
          'counted_progress',
        ),
    })
    .from(projectTaskCounts)
    .where(eq(projectTaskCounts.projectId, projectId))
    .as('totals');
}

/**
 * Recounts every project's task counters from its tasks, into one row each. Triggers on `tasks`
 * (migrations 0003, 0004) keep them current on every change; a restore calls this after writing the
 * tasks. Inside `tx`, with the counters locked against writers: a writer whose counter update came
 * first is waited for and counted; one that comes later adds to the recount.
 */
export async function recountAllProjects(tx: Tx): Promise<void> {
  await tx.execute(sql`lock table project_task_counts in exclusive mode`);
  await tx.execute(sql`delete from project_task_counts`);
  await tx.execute(sql`
    insert into project_task_counts (project_id, slot, todo_count, in_progress_count, review_count, done_count)
    select project_id, 0,
      (count(*) filter (where status = 'todo'))::int,
      (count(*) filter (where status = 'in_progress'))::int,
      (count(*) filter (where status = 'review'))::int,
      (count(*) filter (where status = 'completed'))::int
    from tasks group by project_id`);
}

/**
 * Recounts every task's comment, attachment and checklist counts (kept by the triggers of migration 0006) from the
 * rows themselves. A restore writes the tasks with their counts and then their children, whose triggers add again:
 * this sets them right.
 */
export async function recountTaskChildren(tx: Tx): Promise<void> {
  await tx.execute(sql`
    update tasks t set
      comment_count = (select count(*)::int from task_comments c where c.task_id = t.id),
      attachment_count = (select count(*)::int from task_attachments a where a.task_id = t.id),
      checklist_total = (select count(*)::int from task_checklist_items i where i.task_id = t.id),
      checklist_done = (select count(*)::int from task_checklist_items i where i.task_id = t.id and i.done)
    where comment_count <> 0 or attachment_count <> 0 or checklist_total <> 0
      or exists (select 1 from task_comments c where c.task_id = t.id)
      or exists (select 1 from task_attachments a where a.task_id = t.id)
      or exists (select 1 from task_checklist_items i where i.task_id = t.id)`);
}
