ALTER TABLE "projects" ADD COLUMN "task_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "done_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_counts_check" CHECK ("projects"."done_count" between 0 and "projects"."task_count");--> statement-breakpoint
UPDATE "projects" p SET
  "task_count" = c.n,
  "done_count" = c.done,
  "progress" = coalesce(round(100.0 * c.done / nullif(c.n, 0))::int, 0)
FROM (
  SELECT "project_id", count(*)::int AS n, (count(*) FILTER (WHERE "status" = 'completed'))::int AS done
  FROM "tasks" GROUP BY "project_id"
) c
WHERE p."id" = c."project_id";
--> statement-breakpoint
-- Keeps each project's task_count, done_count and progress in step with its tasks, once per
-- statement (a bulk insert or a restore updates each project once). Concurrent writers to one
-- project queue on its row, and each adds to the latest counts (READ COMMITTED re-reads a row it
-- waited for), so the counters stay exact without a recount. Edits that change neither the project
-- nor the completed state of a task leave the project row alone.
CREATE FUNCTION "crewboard_tasks_counted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
  ns int[];
  dones int[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(project_id), array_agg(n), array_agg(done) INTO ids, ns, dones FROM (
      SELECT project_id, count(*)::int AS n, (count(*) FILTER (WHERE status = 'completed'))::int AS done
      FROM new_rows GROUP BY project_id) d;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(project_id), array_agg(n), array_agg(done) INTO ids, ns, dones FROM (
      SELECT project_id, -count(*)::int AS n, -(count(*) FILTER (WHERE status = 'completed'))::int AS done
      FROM old_rows GROUP BY project_id) d;
  ELSE
    SELECT array_agg(project_id), array_agg(n), array_agg(done) INTO ids, ns, dones FROM (
      SELECT project_id, sum(n)::int AS n, sum(done)::int AS done FROM (
        SELECT project_id, 1 AS n, (status = 'completed')::int AS done FROM new_rows
        UNION ALL
        SELECT project_id, -1, -((status = 'completed')::int) FROM old_rows) x
      GROUP BY project_id) d
    WHERE n <> 0 OR done <> 0;
  END IF;
  IF ids IS NOT NULL THEN
    UPDATE "projects" p SET
      "task_count" = p."task_count" + d.n,
      "done_count" = p."done_count" + d.done,
      "progress" = coalesce(round(100.0 * (p."done_count" + d.done) / nullif(p."task_count" + d.n, 0))::int, 0)
    FROM unnest(ids, ns, dones) AS d(project_id, n, done)
    WHERE p."id" = d.project_id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "tasks_counted_insert" AFTER INSERT ON "tasks"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "crewboard_tasks_counted"();
--> statement-breakpoint
CREATE TRIGGER "tasks_counted_update" AFTER UPDATE ON "tasks"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "crewboard_tasks_counted"();
--> statement-breakpoint
CREATE TRIGGER "tasks_counted_delete" AFTER DELETE ON "tasks"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "crewboard_tasks_counted"();
