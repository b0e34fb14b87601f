-- Per-project workflows (issue 36, decision 0024), step 2: each project's statuses as rows, every existing project
-- given the spec's four, and every task kept in its status. Tasks still hold the status's key (every value already
-- is its project's key: nothing is written to tasks.status); a composite foreign key now checks it against the
-- project's statuses instead of the check of the four, and a trigger copies the status's category onto the task.
-- The counters move from one column per status to one row per status key (and slot).
--
-- The tasks table is altered first: its lock keeps every writer of tasks out until this migration commits, so the
-- counters are copied and their trigger replaced with no task written in between.
ALTER TABLE "tasks" ADD COLUMN "status_category" text DEFAULT null;--> statement-breakpoint
CREATE TABLE "project_statuses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"category" text NOT NULL,
	"color" text NOT NULL,
	"position" integer,
	"wip_limit" integer,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_statuses_project_key_unique" UNIQUE("project_id","key"),
	CONSTRAINT "project_statuses_category_check" CHECK ("project_statuses"."category" in ('backlog', 'unstarted', 'started', 'completed', 'canceled')),
	CONSTRAINT "project_statuses_color_check" CHECK ("project_statuses"."color" ~ '^#[0-9a-f]{6}$'),
	CONSTRAINT "project_statuses_wip_limit_check" CHECK ("project_statuses"."wip_limit" between 1 and 10000),
	CONSTRAINT "project_statuses_position_check" CHECK (("project_statuses"."position" is null) = ("project_statuses"."deleted_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "project_statuses" ADD CONSTRAINT "project_statuses_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "project_statuses_project_name_idx" ON "project_statuses" USING btree ("project_id",lower("name")) WHERE "project_statuses"."deleted_at" is null;--> statement-breakpoint
-- The spec's four for every project, as src/domain/workflow.ts DEFAULT_STATUSES gives them today (a migration is a
-- frozen copy: the domain's list may change, this may not).
INSERT INTO "project_statuses" ("project_id", "key", "name", "category", "color", "position")
SELECT p."id", d.key, d.name, d.category, d.color, d.position
FROM "projects" p
CROSS JOIN (VALUES
  ('todo', 'To Do', 'unstarted', '#64748b', 0),
  ('in_progress', 'In Progress', 'started', '#0ea5e9', 1),
  ('review', 'Review', 'started', '#f59e0b', 2),
  ('completed', 'Completed', 'completed', '#22c55e', 3)
) AS d(key, name, category, color, position)
ORDER BY p."id", d.position;
--> statement-breakpoint
UPDATE "tasks" t SET "status_category" = s."category"
FROM "project_statuses" s
WHERE s."project_id" = t."project_id" AND s."key" = t."status";
--> statement-breakpoint
ALTER TABLE "tasks" ALTER COLUMN "status_category" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" DROP CONSTRAINT "tasks_status_check";--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_status_category_check" CHECK ("tasks"."status_category" in ('backlog', 'unstarted', 'started', 'completed', 'canceled'));--> statement-breakpoint
-- No action (checked at the statement's end), not restrict: deleting a project removes its statuses and its tasks
-- in one statement. A status is never deleted otherwise (a deleted status keeps its row).
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_project_status_fk" FOREIGN KEY ("project_id","status") REFERENCES "public"."project_statuses"("project_id","key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- A task's category is its status's, read from the status row on every insert and on every change of its status or
-- project, whatever the statement wrote. A status that is missing or deleted is refused here (the foreign key alone
-- would accept a deleted one): the database's backstop for a write racing the status's delete. The row is read
-- `for key share` (the foreign key's own lock, so it costs nothing more): a delete, which locks the status `for
-- update` first, waits for the writer's commit, or the writer waits for the delete's and then finds it deleted.
CREATE FUNCTION "crewboard_task_status_category"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s record;
BEGIN
  SELECT ps."category", ps."deleted_at" INTO s FROM "project_statuses" ps
  WHERE ps."project_id" = NEW."project_id" AND ps."key" = NEW."status"
  FOR KEY SHARE;
  IF NOT FOUND OR s.deleted_at IS NOT NULL THEN
    RAISE EXCEPTION 'project % has no status %', NEW."project_id", NEW."status"
      USING ERRCODE = 'foreign_key_violation', TABLE = 'tasks', COLUMN = 'status', CONSTRAINT = 'tasks_project_status_fk';
  END IF;
  NEW."status_category" := s.category;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "tasks_status_category" BEFORE INSERT OR UPDATE OF "status", "project_id" ON "tasks"
  FOR EACH ROW EXECUTE FUNCTION "crewboard_task_status_category"();
--> statement-breakpoint
-- The counters, per status key: the slots of migration 0004, a row per project, status and slot.
CREATE TABLE "project_status_counts" (
	"project_id" uuid NOT NULL,
	"status" text NOT NULL,
	"slot" integer NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "project_status_counts_project_id_status_slot_pk" PRIMARY KEY("project_id","status","slot")
);
--> statement-breakpoint
ALTER TABLE "project_status_counts" ADD CONSTRAINT "project_status_counts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Each old column becomes its key's row, slot by slot (a slot's count may be negative: only the sums are exact).
INSERT INTO "project_status_counts" ("project_id", "status", "slot", "n")
SELECT c."project_id", k.status, c."slot", k.n
FROM "project_task_counts" c
CROSS JOIN LATERAL (VALUES
  ('todo', c."todo_count"),
  ('in_progress', c."in_progress_count"),
  ('review', c."review_count"),
  ('completed', c."done_count")
) AS k(status, n)
WHERE k.n <> 0;
--> statement-breakpoint
-- The deltas of 0004, per status key instead of per column: grouped by project and key, once per statement, added
-- to this connection's slot, in one order for every writer (two statements over the same projects cannot
-- deadlock); projects deleted in the same transaction (their tasks go by cascade) are left out.
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
  INSERT INTO "project_status_counts" AS k ("project_id", "status", "slot", "n")
  SELECT d.project_id, d.status, pg_backend_pid() % 8, d.n
  FROM (
    SELECT c.project_id, c.status, sum(c.sign)::int AS n
    FROM (
      SELECT n.project_id, n.status, 1 AS sign FROM unnest(new_ids, new_statuses) AS n(project_id, status)
      UNION ALL
      SELECT o.project_id, o.status, -1 FROM unnest(old_ids, old_statuses) AS o(project_id, status)
    ) c
    GROUP BY c.project_id, c.status
  ) d
  WHERE d.n <> 0 AND EXISTS (SELECT 1 FROM "projects" p WHERE p."id" = d.project_id)
  ORDER BY d.project_id, d.status
  ON CONFLICT ("project_id", "status", "slot") DO UPDATE SET "n" = k."n" + excluded."n";
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP TABLE "project_task_counts" CASCADE;--> statement-breakpoint
-- Deferred to the commit (which Drizzle's schema cannot say): a reorder rewrites the positions in one statement.
-- Added last: a table with deferred checks pending cannot be altered in the same transaction.
ALTER TABLE "project_statuses" ADD CONSTRAINT "project_statuses_project_position_unique" UNIQUE("project_id","position") DEFERRABLE INITIALLY DEFERRED;
