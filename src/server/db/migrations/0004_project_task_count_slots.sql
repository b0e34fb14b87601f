-- A project's task counters move from its own row to rows of their own, one per slot (see
-- project_task_counts in schema.ts). On the project's row, every writer to the project waited for
-- the one before it to commit.
CREATE TABLE "project_task_counts" (
	"project_id" uuid NOT NULL,
	"slot" integer NOT NULL,
	"todo_count" integer DEFAULT 0 NOT NULL,
	"in_progress_count" integer DEFAULT 0 NOT NULL,
	"review_count" integer DEFAULT 0 NOT NULL,
	"done_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "project_task_counts_project_id_slot_pk" PRIMARY KEY("project_id","slot")
);
--> statement-breakpoint
ALTER TABLE "project_task_counts" ADD CONSTRAINT "project_task_counts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "project_task_counts" ("project_id", "slot", "todo_count", "in_progress_count", "review_count", "done_count")
  SELECT "id", 0, "todo_count", "in_progress_count", "review_count", "done_count" FROM "projects" WHERE "task_count" <> 0;
--> statement-breakpoint
-- Same deltas as in 0003, once per statement; each project's go to the row of this connection's
-- slot. Projects deleted in the same transaction (their tasks go by cascade) are left out.
CREATE OR REPLACE FUNCTION "crewboard_tasks_counted"() RETURNS trigger LANGUAGE plpgsql AS $$
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
  INSERT INTO "project_task_counts" AS k ("project_id", "slot", "todo_count", "in_progress_count", "review_count", "done_count")
  SELECT d.project_id, pg_backend_pid() % 8, d.todo, d.doing, d.review, d.done
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
  WHERE (d.todo <> 0 OR d.doing <> 0 OR d.review <> 0 OR d.done <> 0)
    AND EXISTS (SELECT 1 FROM "projects" p WHERE p."id" = d.project_id)
  -- One order for every writer: two statements over the same projects cannot deadlock.
  ORDER BY d.project_id
  ON CONFLICT ("project_id", "slot") DO UPDATE SET
    "todo_count" = k."todo_count" + excluded."todo_count",
    "in_progress_count" = k."in_progress_count" + excluded."in_progress_count",
    "review_count" = k."review_count" + excluded."review_count",
    "done_count" = k."done_count" + excluded."done_count";
  RETURN NULL;
END;
$$;
--> statement-breakpoint
ALTER TABLE "projects" DROP CONSTRAINT "projects_progress_check";--> statement-breakpoint
ALTER TABLE "projects" DROP CONSTRAINT "projects_counts_check";--> statement-breakpoint
ALTER TABLE "projects" DROP COLUMN "progress";--> statement-breakpoint
ALTER TABLE "projects" DROP COLUMN "task_count";--> statement-breakpoint
ALTER TABLE "projects" DROP COLUMN "todo_count";--> statement-breakpoint
ALTER TABLE "projects" DROP COLUMN "in_progress_count";--> statement-breakpoint
ALTER TABLE "projects" DROP COLUMN "review_count";--> statement-breakpoint
ALTER TABLE "projects" DROP COLUMN "done_count";
