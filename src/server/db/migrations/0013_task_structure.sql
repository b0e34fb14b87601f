-- Sub-tasks, start dates and dependencies (issue 37, decision 0025 "Tables (migration 0013)"). Every existing task
-- stays a top-level task (parent_id null) with no sub-tasks, no start date and no blockers: the columns' defaults. The
-- counters on tasks are kept by the triggers below and never written by the app; a counter's change leaves the
-- task's version and updated_at alone (both are the app's: no trigger maintains them).
CREATE TABLE "task_dependencies" (
	"task_id" uuid NOT NULL,
	"blocked_by_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	CONSTRAINT "task_dependencies_task_id_blocked_by_id_pk" PRIMARY KEY("task_id","blocked_by_id"),
	CONSTRAINT "task_dependencies_not_self_check" CHECK ("task_dependencies"."task_id" <> "task_dependencies"."blocked_by_id")
);
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "parent_id" uuid;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "subtask_position" integer;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "subtask_done" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "subtask_total" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "start_date" date;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "open_blocker_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "task_dependencies" ADD CONSTRAINT "task_dependencies_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_dependencies" ADD CONSTRAINT "task_dependencies_blocked_by_id_tasks_id_fk" FOREIGN KEY ("blocked_by_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_dependencies" ADD CONSTRAINT "task_dependencies_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "task_dependencies_blocked_by_idx" ON "task_dependencies" USING btree ("blocked_by_id");--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_parent_id_tasks_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tasks_parent_idx" ON "tasks" USING btree ("parent_id","subtask_position") WHERE "tasks"."parent_id" is not null;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_dates_check" CHECK ("tasks"."start_date" is null or "tasks"."due_date" is null or "tasks"."start_date" <= "tasks"."due_date");--> statement-breakpoint
-- The task's category from its status (0011), and now its parent: in the task's own project, else refused. Read on
-- insert and on a change of the status, the project or the parent. The parent is read `for no key update`, the lock
-- the sub-task counts below take on it anyway (a weaker one first would deadlock two sub-tasks added at once): a move
-- of the parent to another project waits for this transaction, or this one for the move, and then sees where it went.
-- A parent that does not exist is left to the foreign key (a restore writes a chunk's rows in one statement, parents
-- and children together). The parent's side is the service's: a parent moved to another project moves its subtree in
-- the same transaction, top-down, one statement per level (within one statement a row's check may read its parent
-- before or after the parent's own change).
CREATE OR REPLACE FUNCTION "crewboard_task_status_category"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s record;
  parent_project uuid;
BEGIN
  SELECT ps."category", ps."deleted_at" INTO s FROM "project_statuses" ps
  WHERE ps."project_id" = NEW."project_id" AND ps."key" = NEW."status"
  FOR KEY SHARE;
  IF NOT FOUND OR s.deleted_at IS NOT NULL THEN
    RAISE EXCEPTION 'project % has no status %', NEW."project_id", NEW."status"
      USING ERRCODE = 'foreign_key_violation', TABLE = 'tasks', COLUMN = 'status', CONSTRAINT = 'tasks_project_status_fk';
  END IF;
  NEW."status_category" := s.category;
  IF NEW."parent_id" IS NOT NULL AND (TG_OP = 'INSERT' OR NEW."parent_id" IS DISTINCT FROM OLD."parent_id"
    OR NEW."project_id" IS DISTINCT FROM OLD."project_id") THEN
    SELECT t."project_id" INTO parent_project FROM "tasks" t WHERE t."id" = NEW."parent_id" FOR NO KEY UPDATE;
    IF FOUND AND parent_project IS DISTINCT FROM NEW."project_id" THEN
      RAISE EXCEPTION 'the parent task % is in another project than task %', NEW."parent_id", NEW."id"
        USING ERRCODE = 'check_violation', TABLE = 'tasks', COLUMN = 'parent_id', CONSTRAINT = 'tasks_parent_project_check',
          HINT = 'A sub-task is in its parent''s project.';
    END IF;
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
DROP TRIGGER "tasks_status_category" ON "tasks";--> statement-breakpoint
CREATE TRIGGER "tasks_status_category" BEFORE INSERT OR UPDATE OF "status", "project_id", "parent_id" ON "tasks"
  FOR EACH ROW EXECUTE FUNCTION "crewboard_task_status_category"();
--> statement-breakpoint
-- The parents' sub-task counts: done (the completed category) and total (all but canceled). Inserts and deletes
-- (imports, a parent's cascade) once per statement, grouped by parent, added in the parents' id order (two statements
-- over the same parents cannot deadlock). A parent deleted in the same statement (a cascade) has no row left to
-- update.
CREATE FUNCTION "crewboard_tasks_subtask_counted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  parents uuid[];
  categories text[];
  signs int[];
  r record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n.parent_id), array_agg(n.status_category), array_agg(1) INTO parents, categories, signs
    FROM new_rows n WHERE n.parent_id IS NOT NULL;
  ELSE
    SELECT array_agg(o.parent_id), array_agg(o.status_category), array_agg(-1) INTO parents, categories, signs
    FROM old_rows o WHERE o.parent_id IS NOT NULL;
  END IF;
  IF parents IS NULL THEN
    RETURN NULL;
  END IF;
  FOR r IN
    SELECT d.parent_id, d.done, d.total FROM (
      SELECT c.parent_id,
        coalesce(sum(c.sign) FILTER (WHERE c.category = 'completed'), 0)::int AS done,
        coalesce(sum(c.sign) FILTER (WHERE c.category <> 'canceled'), 0)::int AS total
      FROM unnest(parents, categories, signs) AS c(parent_id, category, sign)
      GROUP BY c.parent_id
    ) d
    WHERE d.done <> 0 OR d.total <> 0
    ORDER BY d.parent_id
  LOOP
    UPDATE "tasks" SET "subtask_done" = "subtask_done" + r.done, "subtask_total" = "subtask_total" + r.total
    WHERE "id" = r.parent_id;
  END LOOP;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "tasks_subtask_counted_insert" AFTER INSERT ON "tasks"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "crewboard_tasks_subtask_counted"();
--> statement-breakpoint
CREATE TRIGGER "tasks_subtask_counted_delete" AFTER DELETE ON "tasks"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "crewboard_tasks_subtask_counted"();
--> statement-breakpoint
-- Updates: a row trigger whose WHEN is read without calling the function, so that a task update that changes no
-- count (a top-level task's, nearly all of them) costs nothing here. PostgreSQL allows no column list on a trigger
-- with transition tables, so a statement trigger would run on every update of tasks: measured on a task's status
-- move, about 14 µs of the database's CPU against 7 µs for this one. A sub-task re-parented changes two parents, in
-- id order; a bulk update of many sub-tasks (completing a parent's children) updates their parent once per child.
CREATE FUNCTION "crewboard_task_subtask_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN
    SELECT c.id, sum(c.done)::int AS done, sum(c.total)::int AS total
    FROM (VALUES
      (OLD."parent_id", -(OLD."status_category" = 'completed')::int, -(OLD."status_category" <> 'canceled')::int),
      (NEW."parent_id", (NEW."status_category" = 'completed')::int, (NEW."status_category" <> 'canceled')::int)
    ) AS c(id, done, total)
    WHERE c.id IS NOT NULL
    GROUP BY c.id
    HAVING sum(c.done) <> 0 OR sum(c.total) <> 0
    ORDER BY c.id
  LOOP
    UPDATE "tasks" SET "subtask_done" = "subtask_done" + r.done, "subtask_total" = "subtask_total" + r.total
    WHERE "id" = r.id;
  END LOOP;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "tasks_subtask_moved" AFTER UPDATE OF "parent_id", "status", "project_id", "status_category" ON "tasks"
  FOR EACH ROW
  WHEN (OLD."parent_id" IS DISTINCT FROM NEW."parent_id" OR (NEW."parent_id" IS NOT NULL AND (
    (OLD."status_category" = 'completed') <> (NEW."status_category" = 'completed')
    OR (OLD."status_category" = 'canceled') <> (NEW."status_category" = 'canceled'))))
  EXECUTE FUNCTION "crewboard_task_subtask_moved"();
--> statement-breakpoint
-- The blocked tasks' open blocker counts (open: not in the completed category), on dependencies added and removed.
-- The blockers are read `for share`, in id order: a blocker's category change (below) waits for this transaction, or
-- this one waits for it and reads the category it committed; either way each change is counted once. A dependency
-- removed because its blocker was deleted (the cascade; the blocker's row is gone, and its category with it): its
-- task is recounted from its remaining dependencies, under its row lock.
CREATE FUNCTION "crewboard_task_dependencies_counted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM 1 FROM "tasks" b WHERE b."id" IN (SELECT n.blocked_by_id FROM new_rows n) ORDER BY b."id" FOR SHARE;
    FOR r IN
      SELECT n.task_id, count(*)::int AS k
      FROM new_rows n JOIN "tasks" b ON b."id" = n.blocked_by_id
      WHERE b."status_category" <> 'completed'
      GROUP BY n.task_id ORDER BY n.task_id
    LOOP
      UPDATE "tasks" SET "open_blocker_count" = "open_blocker_count" + r.k WHERE "id" = r.task_id;
    END LOOP;
    RETURN NULL;
  END IF;
  PERFORM 1 FROM "tasks" b WHERE b."id" IN (SELECT o.blocked_by_id FROM old_rows o) ORDER BY b."id" FOR SHARE;
  FOR r IN
    SELECT o.task_id,
      (count(*) FILTER (WHERE b."id" IS NOT NULL AND b."status_category" <> 'completed'))::int AS k,
      bool_or(b."id" IS NULL) AS blocker_gone
    FROM old_rows o LEFT JOIN "tasks" b ON b."id" = o.blocked_by_id
    GROUP BY o.task_id ORDER BY o.task_id
  LOOP
    IF r.blocker_gone THEN
      PERFORM 1 FROM "tasks" t WHERE t."id" = r.task_id FOR NO KEY UPDATE;
      UPDATE "tasks" t SET "open_blocker_count" = (
        SELECT count(*)::int FROM "task_dependencies" d JOIN "tasks" b ON b."id" = d."blocked_by_id"
        WHERE d."task_id" = t."id" AND b."status_category" <> 'completed')
      WHERE t."id" = r.task_id;
    ELSIF r.k <> 0 THEN
      UPDATE "tasks" SET "open_blocker_count" = "open_blocker_count" - r.k WHERE "id" = r.task_id;
    END IF;
  END LOOP;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "task_dependencies_counted_insert" AFTER INSERT ON "task_dependencies"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "crewboard_task_dependencies_counted"();
--> statement-breakpoint
CREATE TRIGGER "task_dependencies_counted_delete" AFTER DELETE ON "task_dependencies"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "crewboard_task_dependencies_counted"();
--> statement-breakpoint
-- A blocker completed or reopened: every task it blocks, through the (blocked_by_id) index, in id order. A row
-- trigger whose WHEN is read without calling the function: a task update that does not cross the completed boundary
-- (nearly all of them) costs nothing here. Transition tables would fire it on every update: PostgreSQL allows no
-- column list with them.
CREATE FUNCTION "crewboard_task_blocker_category"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta int := CASE WHEN NEW."status_category" = 'completed' THEN -1 ELSE 1 END;
  r record;
BEGIN
  FOR r IN SELECT d."task_id" FROM "task_dependencies" d WHERE d."blocked_by_id" = NEW."id" ORDER BY d."task_id" LOOP
    UPDATE "tasks" SET "open_blocker_count" = "open_blocker_count" + delta WHERE "id" = r.task_id;
  END LOOP;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "tasks_blocker_category" AFTER UPDATE OF "status", "project_id", "status_category" ON "tasks"
  FOR EACH ROW
  WHEN ((OLD."status_category" = 'completed') IS DISTINCT FROM (NEW."status_category" = 'completed'))
  EXECUTE FUNCTION "crewboard_task_blocker_category"();
