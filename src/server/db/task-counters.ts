import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { TaskStatus } from '../../domain/constants';
import type { StatusCategory } from '../../domain/workflow';
import type { DbOrTx, Tx } from './client';
import { projectStatusCounts, projectStatuses } from './schema';

/**
 * The tasks of one status key in a set of counter rows (0 when there are none). The key is written as a literal: it is
 * one of the default four, and a prepared statement keeps one plan for it.
 */
const sumOf = (status: TaskStatus) =>
  sql<number>`coalesce(sum(${projectStatusCounts.n}) filter (where ${projectStatusCounts.status} = ${sql.raw(`'${status}'`)}), 0)::int`;

/**
 * The sums of a set of counter rows (migration 0011: one row per project, status key and slot): tasks per default
 * status key, and in all (0 when there are none). For a project with the default workflow these are exactly the
 * figures of the four columns the counters had before.
 */
export const countSums = {
  todo: sumOf('todo'),
  in_progress: sumOf('in_progress'),
  review: sumOf('review'),
  completed: sumOf('completed'),
};
export const countTotal = sql<number>`coalesce(sum(${projectStatusCounts.n}), 0)::int`;

/**
 * The tasks of one category in a set of counter rows joined to their statuses (`withStatuses`), 0 when none: what
 * every rule of meaning counts (decision 0024), whatever the project calls its statuses.
 */
export const categorySum = (category: StatusCategory) =>
  sql<number>`coalesce(sum(${projectStatusCounts.n}) filter (where ${projectStatuses.category} = ${sql.raw(`'${category}'`)}), 0)::int`;

/** Counter rows with their status (deleted statuses included: they count 0, their tasks having moved). */
export const counterStatus = and(
  eq(projectStatuses.projectId, projectStatusCounts.projectId),
  eq(projectStatuses.key, projectStatusCounts.status),
)!;

/**
 * A set of counter rows' progress (domain workflow.ts `progressOf`: completed ÷ (all − canceled), in whole percent,
 * 0 when nothing counts), over counter rows joined to their statuses (`counterStatus`).
 */
export const countProgress = sql<number>`coalesce(round(100.0 * ${categorySum('completed')} / nullif(${countTotal} - ${categorySum('canceled')}, 0))::int, 0)`;

/**
 * One project's task count and progress (`countProgress`), as a subquery on the project `projectId` names, for a
 * lateral join: the sum of its counter rows (migrations 0004, 0011), never a count of its tasks.
 */
export function projectTotals(db: DbOrTx, projectId: AnyPgColumn | SQL) {
  return db
    .select({
      taskCount: sql<number>`${countTotal}`.as('counted_tasks'),
      progress: sql<number>`${countProgress}`.as('counted_progress'),
    })
    .from(projectStatusCounts)
    .leftJoin(projectStatuses, counterStatus)
    .where(eq(projectStatusCounts.projectId, projectId))
    .as('totals');
}

/**
 * Recounts every project's task counters from its tasks, into one row per project and status key. The trigger on
 * `tasks` (migrations 0003, 0004, 0011) keeps them current on every change; a restore calls this after writing the
 * tasks. Inside `tx`, with the counters locked against writers: a writer whose counter update came first is waited
 * for and counted; one that comes later adds to the recount.
 */
export async function recountAllProjects(tx: Tx): Promise<void> {
  await tx.execute(sql`lock table project_status_counts in exclusive mode`);
  await tx.execute(sql`delete from project_status_counts`);
  await tx.execute(sql`
    insert into project_status_counts (project_id, status, slot, n)
    select project_id, status, 0, count(*)::int from tasks group by project_id, status`);
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
