CREATE TABLE "task_series" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"creator_id" uuid NOT NULL,
	"rule" text NOT NULL,
	"mode" text NOT NULL,
	"timezone" text NOT NULL,
	"anchor_date" date NOT NULL,
	"next_date" date,
	"next_at" timestamp with time zone,
	"current_task_id" uuid,
	"created_count" integer DEFAULT 1 NOT NULL,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_series_mode_check" CHECK ("task_series"."mode" in ('on_completion', 'on_schedule'))
);
--> statement-breakpoint
CREATE TABLE "time_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"task_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"date" date NOT NULL,
	"minutes" integer NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "time_entries_minutes_check" CHECK ("time_entries"."minutes" between 1 and 1440)
);
--> statement-breakpoint
CREATE TABLE "timers" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"task_id" uuid NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "estimate_unit" text DEFAULT 'time' NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "series_id" uuid;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "occurrence_date" date;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "repeat" jsonb;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "estimate_minutes" integer;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "estimate_points" real;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "logged_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "subtask_logged_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "task_series" ADD CONSTRAINT "task_series_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_series" ADD CONSTRAINT "task_series_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_series" ADD CONSTRAINT "task_series_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_series" ADD CONSTRAINT "task_series_current_task_id_tasks_id_fk" FOREIGN KEY ("current_task_id") REFERENCES "public"."tasks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timers" ADD CONSTRAINT "timers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timers" ADD CONSTRAINT "timers_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "task_series_due_idx" ON "task_series" USING btree ("next_at") WHERE "task_series"."mode" = 'on_schedule' and "task_series"."ended_at" is null and "task_series"."next_at" is not null;--> statement-breakpoint
CREATE INDEX "task_series_current_idx" ON "task_series" USING btree ("current_task_id");--> statement-breakpoint
CREATE INDEX "task_series_project_idx" ON "task_series" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "time_entries_user_date_idx" ON "time_entries" USING btree ("user_id","date");--> statement-breakpoint
CREATE INDEX "time_entries_task_idx" ON "time_entries" USING btree ("task_id","date");--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_series_id_task_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."task_series"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_series_occurrence_idx" ON "tasks" USING btree ("series_id","occurrence_date") WHERE "tasks"."series_id" is not null;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_estimate_unit_check" CHECK ("teams"."estimate_unit" in ('time', 'points'));--> statement-breakpoint
-- The history records estimates and time entries (issue 39): 'estimate' and 'time_entry' rows.
ALTER TABLE "task_activity" DROP CONSTRAINT "task_activity_field_check";--> statement-breakpoint
ALTER TABLE "task_activity" ADD CONSTRAINT "task_activity_field_check" CHECK ("task_activity"."field" in ('title', 'description', 'status', 'priority', 'assignee', 'due_date', 'project', 'tags', 'start_date', 'parent', 'blocked_by', 'blocking', 'custom_field', 'estimate', 'time_entry'));--> statement-breakpoint
-- Time logged (decision 0027 "Time"): a task's `logged_minutes` is the sum of its own entries, its
-- `subtask_logged_minutes` the sum of (logged + subtask_logged) over its direct sub-tasks, so at every level the whole
-- subtree's time. Both are kept by the triggers below and never written by the app; like the counts of 0013 they
-- leave the task's version and updated_at alone (both are the app's: no trigger here sets them). Each trigger changes
-- one task's figure by a difference; the change of that task's total then climbs to its parent through the tasks
-- trigger, one level per update (depth ≤ 5), each update in the tasks' id order where one statement touches several.
--
-- Entries inserted or deleted (a task's cascade, an account's), once per statement, grouped by task. A task deleted
-- with its entries (the cascade runs after the task's row is gone) has no row left to update: its parent loses its
-- whole total once, through the tasks delete trigger, from the row as it was.
CREATE FUNCTION "crewboard_time_entries_logged"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR r IN SELECT n.task_id, sum(n.minutes)::int AS m FROM new_rows n GROUP BY n.task_id ORDER BY n.task_id LOOP
      UPDATE "tasks" SET "logged_minutes" = "logged_minutes" + r.m WHERE "id" = r.task_id;
    END LOOP;
  ELSE
    FOR r IN SELECT o.task_id, sum(o.minutes)::int AS m FROM old_rows o GROUP BY o.task_id ORDER BY o.task_id LOOP
      UPDATE "tasks" SET "logged_minutes" = "logged_minutes" - r.m WHERE "id" = r.task_id;
    END LOOP;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "time_entries_logged_insert" AFTER INSERT ON "time_entries"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "crewboard_time_entries_logged"();
--> statement-breakpoint
CREATE TRIGGER "time_entries_logged_delete" AFTER DELETE ON "time_entries"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "crewboard_time_entries_logged"();
--> statement-breakpoint
-- An entry's minutes changed, or the entry moved to another task (the API does not move entries; SQL may): a row
-- trigger whose WHEN is read without calling the function, so a change of the day or the note costs nothing here.
CREATE FUNCTION "crewboard_time_entry_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN
    SELECT c.id, sum(c.m)::int AS m
    FROM (VALUES (OLD."task_id", -OLD."minutes"), (NEW."task_id", NEW."minutes")) AS c(id, m)
    GROUP BY c.id HAVING sum(c.m) <> 0 ORDER BY c.id
  LOOP
    UPDATE "tasks" SET "logged_minutes" = "logged_minutes" + r.m WHERE "id" = r.id;
  END LOOP;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "time_entries_changed" AFTER UPDATE OF "minutes", "task_id" ON "time_entries"
  FOR EACH ROW WHEN (OLD."minutes" <> NEW."minutes" OR OLD."task_id" <> NEW."task_id")
  EXECUTE FUNCTION "crewboard_time_entry_changed"();
--> statement-breakpoint
-- A task's total (logged + subtask_logged) changed, or the task moved to another parent (or to the top level, or from
-- it): the old parent loses the old total, the new one gains the new, in id order. The update of a parent fires this
-- trigger again for it, so the change climbs to the top task. A task moved to another project with its parent keeps
-- its parent and its figures: nothing to do. A row trigger whose WHEN is read without calling the function: a task
-- update that changes no time (nearly all of them) or re-parents a task without time costs nothing here.
CREATE FUNCTION "crewboard_task_time_rolled"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN
    SELECT c.id, sum(c.m)::int AS m
    FROM (VALUES
      (OLD."parent_id", -(OLD."logged_minutes" + OLD."subtask_logged_minutes")),
      (NEW."parent_id", NEW."logged_minutes" + NEW."subtask_logged_minutes")
    ) AS c(id, m)
    WHERE c.id IS NOT NULL
    GROUP BY c.id HAVING sum(c.m) <> 0 ORDER BY c.id
  LOOP
    UPDATE "tasks" SET "subtask_logged_minutes" = "subtask_logged_minutes" + r.m WHERE "id" = r.id;
  END LOOP;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "tasks_time_rolled" AFTER UPDATE OF "parent_id", "logged_minutes", "subtask_logged_minutes" ON "tasks"
  FOR EACH ROW
  WHEN ((OLD."parent_id" IS DISTINCT FROM NEW."parent_id"
      AND (OLD."logged_minutes" + OLD."subtask_logged_minutes" <> 0 OR NEW."logged_minutes" + NEW."subtask_logged_minutes" <> 0))
    OR (NEW."parent_id" IS NOT NULL
      AND OLD."logged_minutes" + OLD."subtask_logged_minutes" <> NEW."logged_minutes" + NEW."subtask_logged_minutes"))
  EXECUTE FUNCTION "crewboard_task_time_rolled"();
--> statement-breakpoint
-- Tasks deleted (one, a parent's cascade, a project's): each one's parent loses the deleted task's total, once per
-- statement, grouped by parent, in id order. A parent deleted in the same statement or cascade has no row left to
-- update; the entries and sub-tasks the cascade deletes after the task find no row of it either, so nothing is
-- counted twice. A task inserted carries no time (an insert needs no trigger: a restore recounts, db/backup.ts).
CREATE FUNCTION "crewboard_tasks_time_unrolled"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN
    SELECT o.parent_id, sum(o.logged_minutes + o.subtask_logged_minutes)::int AS m
    FROM old_rows o WHERE o.parent_id IS NOT NULL
    GROUP BY o.parent_id HAVING sum(o.logged_minutes + o.subtask_logged_minutes) <> 0 ORDER BY o.parent_id
  LOOP
    UPDATE "tasks" SET "subtask_logged_minutes" = "subtask_logged_minutes" - r.m WHERE "id" = r.parent_id;
  END LOOP;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "tasks_time_unrolled_delete" AFTER DELETE ON "tasks"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "crewboard_tasks_time_unrolled"();
