/**
 * Project progress (DESIGN.md §2): the share of a project's tasks that are completed, in whole
 * percent, rounded half up; 0 for a project without tasks. Never written through the API.
 *
 * The server reads it from the database, not from here: triggers on `tasks` keep each project's
 * task counts per status (function `crewboard_tasks_counted`, src/server/db/migrations/
 * 0004_project_task_count_slots.sql, first written in 0003_task_counters.sql), and `projectTotals`
 * in src/server/db/task-counters.ts sums them and applies this rule in SQL:
 * `coalesce(round(100.0 * done / nullif(total, 0))::int, 0)`. This function is the same rule for
 * code outside SQL; src/server/db/task-counters.test.ts checks the two agree.
 */
export function projectProgress(completed: number, total: number): number {
  return total > 0 ? Math.round((100 * completed) / total) : 0;
}
