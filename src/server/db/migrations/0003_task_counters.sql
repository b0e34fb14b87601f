ALTER TABLE "projects" ADD COLUMN "task_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "todo_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "in_progress_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "review_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "done_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_counts_check" CHECK (least("projects"."todo_count", "projects"."in_progress_count", "projects"."review_count", "projects"."done_count") >= 0 and "projects"."todo_count" + "projects"."in_progress_count" + "projects"."review_count" + "projects"."done_count" = "projects"."task_count");--> statement-breakpoint
UPDATE "projects" p SET
  "task_count" = c.todo + c.doing + c.review + c.done,
  "todo_count" = c.todo,
  "in_progress_count" = c.doing,
  "review_count" = c.review,
  "done_count" = c.done,
  "progress" = coalesce(round(100.0 * c.done / nullif(c.todo + c.doing + c.review + c.done, 0))::int, 0)
FROM (
  SELECT "project_id",
    (count(*) FILTER (WHERE "status" = 'todo'))::int AS todo,
    (count(*) FILTER (WHERE "status" = 'in_progress'))::int AS doing,
    (count(*) FILTER (WHERE "status" = 'review'))::int AS review,
    (count(*) FILTER (WHERE "status" = 'completed'))::int AS done
  FROM "tasks" GROUP BY "project_id"
) c
WHERE p."id" = c."project_id";
--> statement-breakpoint
-- Keeps each project's counters (in all and per status) and its progress in step with its tasks,
-- once per statement (a bulk insert or a restore updates each project once). Concurrent writers to
-- one project queue on its row, and each adds to the latest counts (READ COMMITTED re-reads a row
-- it waited for), so the counters stay exact without a recount. Edits that change neither the
-- project nor the status of a task leave the project row alone.
CREATE FUNCTION "crewboard_tasks_counted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  new_ids uuid[];
  new_statuses text[];
  old_ids uuid[];
  old_statuses text[];
BEGIN
  IF TG_OP <> 'DELETE' THEN
    SELECT array_agg(project_id), array_agg(status) INTO new_ids, new_statuses FROM new_rows;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    SELECT array_agg(project_id), array_agg(status) INTO old_ids, old_statuses FROM old_rows;
  END IF;
  UPDATE "projects" p SET
    "task_count" = p."task_count" + d.todo + d.doing + d.review + d.done,
    "todo_count" = p."todo_count" + d.todo,
    "in_progress_count" = p."in_progress_count" + d.doing,
    "review_count" = p."review_count" + d.review,
    "done_count" = p."done_count" + d.done,
    "progress" = coalesce(round(100.0 * (p."done_count" + d.done)
      / nullif(p."task_count" + d.todo + d.doing + d.review + d.done, 0))::int, 0)
  FROM (
    SELECT c.project_id,
      coalesce(sum(c.sign) FILTER (WHERE c.status = 'todo'), 0)::int AS todo,
      coalesce(sum(c.sign) FILTER (WHERE c.status = 'in_progress'), 0)::int AS doing,
      coalesce(sum(c.sign) FILTER (WHERE c.status = 'review'), 0)::int AS review,
      coalesce(sum(c.sign) FILTER (WHERE c.status = 'completed'), 0)::int AS done
    FROM (
      SELECT n.project_id, n.status, 1 AS sign FROM unnest(new_ids, new_statuses) AS n(project_id, status)
      UNION ALL
      SELECT o.project_id, o.status, -1 FROM unnest(old_ids, old_statuses) AS o(project_id, status)
    ) c
    GROUP BY c.project_id
  ) d
  WHERE p."id" = d.project_id AND (d.todo <> 0 OR d.doing <> 0 OR d.review <> 0 OR d.done <> 0);
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
