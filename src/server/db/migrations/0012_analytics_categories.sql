ALTER TABLE "task_activity" ADD COLUMN "old_category" text;--> statement-breakpoint
ALTER TABLE "task_activity" ADD COLUMN "new_category" text;--> statement-breakpoint
CREATE INDEX "tasks_status_category_idx" ON "tasks" USING btree ("status_category","created_at","id");--> statement-breakpoint
ALTER TABLE "task_activity" ADD CONSTRAINT "task_activity_old_category_check" CHECK ("task_activity"."old_category" in ('backlog', 'unstarted', 'started', 'completed', 'canceled'));--> statement-breakpoint
ALTER TABLE "task_activity" ADD CONSTRAINT "task_activity_new_category_check" CHECK ("task_activity"."new_category" in ('backlog', 'unstarted', 'started', 'completed', 'canceled'));--> statement-breakpoint
-- History by category (issue 36, decision 0024, the part of "Tables" that 0011 left): every status row of task_activity
-- carries the categories its old and new status had at the time, the spans of migration 0008 carry theirs, and every
-- rule of meaning the database keeps (completions per month, "started", the spans' partial indexes) reads the
-- category instead of the literal keys. For a project with the default four nothing it shows changes: 'todo' is
-- unstarted, 'in_progress' and 'review' started, 'completed' completed — except that "started" now begins at a first
-- move into Review when a task skipped In Progress (the issue's rule, decision 0024 "Consequences").
--
-- The category of a status key in a project: its status row (deleted statuses included: their rows are kept), else
-- the default four's by key (a frozen copy, as in 0011), else null.
CREATE FUNCTION "crewboard_status_category"(project uuid, status_key text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT coalesce(
    (SELECT ps."category" FROM "project_statuses" ps WHERE ps."project_id" = project AND ps."key" = status_key),
    CASE status_key WHEN 'todo' THEN 'unstarted' WHEN 'in_progress' THEN 'started' WHEN 'review' THEN 'started'
      WHEN 'completed' THEN 'completed' END)
$$;
--> statement-breakpoint
-- The history written before this migration: every key is its task's project's (0011 gave every project the four).
UPDATE "task_activity" a SET
  "old_category" = CASE WHEN a."old_value" IS NOT NULL THEN "crewboard_status_category"(t."project_id", a."old_value") END,
  "new_category" = CASE WHEN a."new_value" IS NOT NULL THEN "crewboard_status_category"(t."project_id", a."new_value") END
FROM "tasks" t
WHERE t."id" = a."task_id" AND a."field" = 'status';
--> statement-breakpoint
-- Status rows written without their categories (a status deleted with its tasks moved, a restore of an older backup,
-- a script) get them here, before the spans' trigger reads them. The app's edits write both (the categories the task
-- had before and after, which only the writer knows for a task moved to another project: its old key means nothing in
-- the new one); a missing one is looked up in the task's project as it is now, then among the default four's keys. A
-- key known to neither (only possible for a moved task whose writer did not say) keeps null, and its span takes the
-- task's category (the spans below).
CREATE FUNCTION "crewboard_task_activity_categories"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  project uuid;
BEGIN
  SELECT t."project_id" INTO project FROM "tasks" t WHERE t."id" = NEW."task_id";
  IF NEW."old_category" IS NULL AND NEW."old_value" IS NOT NULL THEN
    NEW."old_category" := "crewboard_status_category"(project, NEW."old_value");
  END IF;
  IF NEW."new_category" IS NULL AND NEW."new_value" IS NOT NULL THEN
    NEW."new_category" := "crewboard_status_category"(project, NEW."new_value");
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "task_activity_categories" BEFORE INSERT ON "task_activity"
  FOR EACH ROW WHEN (NEW."field" = 'status' AND (NEW."old_category" IS NULL OR NEW."new_category" IS NULL))
  EXECUTE FUNCTION "crewboard_task_activity_categories"();
--> statement-breakpoint
-- The spans' categories: `category`, the span's status's category at the time; `entered_at`, when the task entered
-- that category (the from_at of the first of its consecutive spans in it: moving between two completed statuses is
-- not a new completion). Filled by the rebuild at the end of this migration, then required.
ALTER TABLE "task_status_spans" ADD COLUMN "category" text;--> statement-breakpoint
ALTER TABLE "task_status_spans" ADD COLUMN "entered_at" timestamp with time zone;--> statement-breakpoint
COMMENT ON COLUMN "task_status_spans"."started_at" IS 'The task''s first entry into a started status at or before this span began (cycle time), null if none yet.';--> statement-breakpoint
DROP INDEX "task_status_spans_done_idx";--> statement-breakpoint
DROP INDEX "task_status_spans_open_idx";--> statement-breakpoint
DROP INDEX "task_status_spans_open_due_idx";--> statement-breakpoint
DROP INDEX "task_status_spans_closed_idx";--> statement-breakpoint
DROP INDEX "tasks_open_workload_idx";--> statement-breakpoint
-- Tasks completed now (in the completed category), by when their current span began (throughput, cycle time, the
-- burn-up's completions, the dashboard's month edges); entered_at is when they were completed.
CREATE INDEX "task_status_spans_done_idx" ON "task_status_spans" USING btree ("project_id","from_at") INCLUDE ("started_at","entered_at") WHERE "to_at" IS NULL AND "category" = 'completed';
--> statement-breakpoint
-- Open tasks (neither completed nor canceled), by how long they have been in their status (ageing).
CREATE INDEX "task_status_spans_open_idx" ON "task_status_spans" USING btree ("project_id","from_at") INCLUDE ("status") WHERE "to_at" IS NULL AND "category" NOT IN ('completed', 'canceled');
--> statement-breakpoint
-- Open tasks with a due date, by due date (the overdue trend).
CREATE INDEX "task_status_spans_open_due_idx" ON "task_status_spans" USING btree ("project_id","due_date") INCLUDE ("from_at") WHERE "to_at" IS NULL AND "category" NOT IN ('completed', 'canceled') AND "due_date" IS NOT NULL;
--> statement-breakpoint
-- Spans that ended, by when: what was true at a week's (or a day's) end and changed since (burn-up, overdue,
-- cumulative flow).
CREATE INDEX "task_status_spans_closed_idx" ON "task_status_spans" USING btree ("project_id","to_at") INCLUDE ("status","category","from_at","due_date") WHERE "to_at" IS NOT NULL;
--> statement-breakpoint
-- Every task's current span, whatever its category (the cumulative flow's stretches still open, the canceled ones of
-- the burn-up).
CREATE INDEX "task_status_spans_now_idx" ON "task_status_spans" USING btree ("project_id","from_at") INCLUDE ("status","category") WHERE "to_at" IS NULL;
--> statement-breakpoint
-- Open tasks per project, assignee and priority, read without the table (the workload chart).
CREATE INDEX "tasks_open_workload_idx" ON "tasks" USING btree ("project_id","assignee_id","priority") WHERE "status_category" NOT IN ('completed', 'canceled');
--> statement-breakpoint
-- Rebuilds the spans of the tasks `ids` from their rows (a task that no longer exists keeps none), and moves their
-- completions in the monthly counts (by the month they entered the completed category). As in 0008, the rows are read
-- by task and filtered after.
CREATE OR REPLACE FUNCTION "crewboard_rebuild_task_spans"(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  gone_projects uuid[];
  gone_times timestamptz[];
  made_projects uuid[];
  made_times timestamptz[];
BEGIN
  WITH gone AS (
    DELETE FROM "task_status_spans" WHERE "task_id" = ANY(ids)
    RETURNING "project_id", "category", "entered_at", "to_at"
  )
  SELECT array_agg(g.project_id), array_agg(g.entered_at) INTO gone_projects, gone_times
  FROM gone g WHERE g.to_at IS NULL AND g.category = 'completed';

  WITH r AS MATERIALIZED (
    SELECT a.task_id, a.id, a.field, a.old_value, a.new_value, a.old_category, a.new_category, a.created_at
    FROM "task_activity" a
    WHERE a.task_id = ANY(ids)
  ),
  moves AS (
    SELECT r.task_id, r.old_value, r.new_value, r.old_category, r.new_category, r.created_at,
      (row_number() OVER w)::int AS n, lead(r.created_at) OVER w AS next_at
    FROM r WHERE r.field = 'status'
    WINDOW w AS (PARTITION BY r.task_id ORDER BY r.created_at, r.id)
  ),
  spans AS (
    SELECT t.id AS task_id, 0 AS seq, coalesce(m.old_value, t.status) AS status,
      CASE WHEN m.task_id IS NULL THEN t.status_category ELSE coalesce(m.old_category, t.status_category) END AS category,
      t.created_at AS from_at, m.created_at AS to_at
    FROM "tasks" t LEFT JOIN moves m ON m.task_id = t.id AND m.n = 1
    WHERE t.id = ANY(ids)
    UNION ALL
    SELECT m.task_id, m.n, m.new_value, coalesce(m.new_category, t.status_category), m.created_at, m.next_at
    FROM moves m JOIN "tasks" t ON t.id = m.task_id
  ),
  -- Runs of consecutive spans in one category: each span knows when its run began.
  marked AS (
    SELECT s.*, CASE WHEN s.category IS NOT DISTINCT FROM lag(s.category) OVER w THEN 0 ELSE 1 END AS run_start
    FROM spans s WINDOW w AS (PARTITION BY s.task_id ORDER BY s.seq)
  ),
  runs AS (
    SELECT m.*, sum(m.run_start) OVER (PARTITION BY m.task_id ORDER BY m.seq) AS run FROM marked m
  ),
  made AS (
    INSERT INTO "task_status_spans"
      ("task_id", "seq", "project_id", "status", "category", "from_at", "to_at", "due_date", "started_at", "entered_at")
    SELECT s.task_id, s.seq, t.project_id, s.status, s.category, s.from_at, s.to_at, t.due_date,
      min(s.from_at) FILTER (WHERE s.category = 'started') OVER (PARTITION BY s.task_id ORDER BY s.seq),
      first_value(s.from_at) OVER (PARTITION BY s.task_id, s.run ORDER BY s.seq)
    FROM runs s JOIN "tasks" t ON t.id = s.task_id
    ORDER BY s.task_id, s.seq
    RETURNING "project_id", "category", "entered_at", "to_at"
  )
  SELECT array_agg(m.project_id), array_agg(m.entered_at) INTO made_projects, made_times
  FROM made m WHERE m.to_at IS NULL AND m.category = 'completed';

  IF gone_projects IS NOT NULL OR made_projects IS NOT NULL THEN
    PERFORM "crewboard_count_completions"(
      coalesce(gone_projects, '{}') || coalesce(made_projects, '{}'),
      coalesce(gone_times, '{}') || coalesce(made_times, '{}'),
      array_fill(-1, ARRAY[coalesce(array_length(gone_projects, 1), 0)])
        || array_fill(1, ARRAY[coalesce(array_length(made_projects, 1), 0)])
    );
  END IF;
END;
$$;
--> statement-breakpoint
-- New tasks: one span each, from its creation, in its status and category (a task created completed counts as
-- completed then).
CREATE OR REPLACE FUNCTION "crewboard_tasks_spanned"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  done_projects uuid[];
  done_times timestamptz[];
BEGIN
  WITH made AS (
    INSERT INTO "task_status_spans"
      ("task_id", "seq", "project_id", "status", "category", "from_at", "to_at", "due_date", "started_at", "entered_at")
    SELECT n.id, 0, n.project_id, n.status, n.status_category, n.created_at, NULL, n.due_date,
      CASE WHEN n.status_category = 'started' THEN n.created_at END, n.created_at
    FROM new_rows n
    ORDER BY n.id
    RETURNING "project_id", "category", "from_at"
  )
  SELECT array_agg(m.project_id), array_agg(m.from_at) INTO done_projects, done_times
  FROM made m WHERE m.category = 'completed';
  IF done_projects IS NOT NULL THEN
    PERFORM "crewboard_count_completions"(done_projects, done_times,
      array_fill(1, ARRAY[array_length(done_projects, 1)]));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Deleted tasks: their spans go, and their completions with them.
CREATE OR REPLACE FUNCTION "crewboard_tasks_unspanned"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  gone_projects uuid[];
  gone_times timestamptz[];
BEGIN
  WITH gone AS (
    DELETE FROM "task_status_spans" WHERE "task_id" IN (SELECT o.id FROM old_rows o)
    RETURNING "project_id", "category", "entered_at", "to_at"
  )
  SELECT array_agg(g.project_id), array_agg(g.entered_at) INTO gone_projects, gone_times
  FROM gone g WHERE g.to_at IS NULL AND g.category = 'completed';
  IF gone_projects IS NOT NULL THEN
    PERFORM "crewboard_count_completions"(gone_projects, gone_times,
      array_fill(-1, ARRAY[array_length(gone_projects, 1)]));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- A task moved to another project (its completion moves with it) or given another due date: its spans follow. A
-- status changed with no status row written (the app always writes one, in the same transaction, which then sets
-- the first span right): the definition's "no row: its current status", on the task's only span. A status
-- recategorised (its tasks' status_category updated) changes no span: the history keeps the category of the time.
CREATE OR REPLACE FUNCTION "crewboard_task_span_fields"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cur record;
BEGIN
  IF OLD.project_id IS DISTINCT FROM NEW.project_id THEN
    PERFORM "crewboard_rebuild_task_spans"(ARRAY[NEW.id]);
    RETURN NULL;
  END IF;
  IF OLD.due_date IS DISTINCT FROM NEW.due_date THEN
    UPDATE "task_status_spans" SET "due_date" = NEW.due_date WHERE "task_id" = NEW.id;
  END IF;
  IF OLD.status IS DISTINCT FROM NEW.status
    AND NOT EXISTS (SELECT 1 FROM "task_activity" a WHERE a.task_id = NEW.id AND a.field = 'status') THEN
    SELECT s.status, s.category, s.from_at, s.project_id INTO cur FROM "task_status_spans" s
    WHERE s.task_id = NEW.id AND s.seq = 0 AND s.to_at IS NULL;
    IF NOT FOUND THEN
      PERFORM "crewboard_rebuild_task_spans"(ARRAY[NEW.id]);
    ELSIF cur.status IS DISTINCT FROM NEW.status THEN
      UPDATE "task_status_spans" SET "status" = NEW.status, "category" = NEW.status_category,
        "started_at" = CASE WHEN NEW.status_category = 'started' THEN "from_at" END, "entered_at" = "from_at"
      WHERE "task_id" = NEW.id AND "seq" = 0;
      IF cur.category = 'completed' OR NEW.status_category = 'completed' THEN
        PERFORM "crewboard_count_completions"(ARRAY[cur.project_id, cur.project_id], ARRAY[cur.from_at, cur.from_at],
          ARRAY[CASE WHEN cur.category = 'completed' THEN -1 ELSE 0 END,
            CASE WHEN NEW.status_category = 'completed' THEN 1 ELSE 0 END]);
      END IF;
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Status rows written or deleted: the tasks' spans, once per statement, as in 0008. The app's case (one row after
-- every other of its task) ends the current span and begins the next, in the row's new category; its entry into that
-- category is the current span's when the category is the same (moving between two completed statuses), else now.
CREATE OR REPLACE FUNCTION "crewboard_task_activity_spanned"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
  r record;
  cur record;
  closed_status text;
  closed_category text;
  next_category text;
  next_entered timestamptz;
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT o.task_id) INTO ids FROM old_rows o WHERE o.field = 'status';
    IF ids IS NOT NULL THEN
      PERFORM "crewboard_rebuild_task_spans"(ids);
    END IF;
    RETURN NULL;
  END IF;
  SELECT array_agg(DISTINCT n.task_id) INTO ids FROM new_rows n WHERE n.field = 'status';
  IF ids IS NULL THEN
    RETURN NULL;
  END IF;
  IF (SELECT count(*) FROM new_rows n WHERE n.field = 'status') = 1 THEN
    SELECT n.task_id, n.id, n.old_value, n.new_value, n.old_category, n.new_category, n.created_at INTO r
    FROM new_rows n WHERE n.field = 'status';
    SELECT s.seq, s.status, s.category, s.from_at, s.started_at, s.entered_at, s.project_id, s.due_date INTO cur
    FROM "task_status_spans" s
    WHERE s.task_id = r.task_id AND s.to_at IS NULL
    FOR UPDATE;
    IF FOUND AND cur.from_at <= r.created_at AND NOT EXISTS (
      SELECT 1 FROM "task_activity" a
      WHERE a.task_id = r.task_id AND a.field = 'status' AND a.id <> r.id
        AND (a.created_at > r.created_at OR (a.created_at = r.created_at AND a.id > r.id))
    ) THEN
      -- The first span takes the first row's old value (the status the task was created in).
      closed_status := CASE WHEN cur.seq = 0 THEN coalesce(r.old_value, cur.status) ELSE cur.status END;
      closed_category := CASE WHEN cur.seq = 0 THEN coalesce(r.old_category, cur.category) ELSE cur.category END;
      IF cur.seq = 0 THEN
        cur.started_at := CASE WHEN closed_category = 'started' THEN cur.from_at END;
        cur.entered_at := cur.from_at;
      END IF;
      next_category := coalesce(r.new_category,
        (SELECT t.status_category FROM "tasks" t WHERE t.id = r.task_id));
      next_entered := CASE WHEN next_category = closed_category THEN cur.entered_at ELSE r.created_at END;
      UPDATE "task_status_spans" SET "to_at" = r.created_at, "status" = closed_status, "category" = closed_category,
        "started_at" = cur.started_at, "entered_at" = cur.entered_at
      WHERE "task_id" = r.task_id AND "seq" = cur.seq;
      INSERT INTO "task_status_spans"
        ("task_id", "seq", "project_id", "status", "category", "from_at", "to_at", "due_date", "started_at", "entered_at")
      VALUES (r.task_id, cur.seq + 1, cur.project_id, r.new_value, next_category, r.created_at, NULL, cur.due_date,
        coalesce(cur.started_at, CASE WHEN next_category = 'started' THEN r.created_at END), next_entered);
      -- What was counted (the current span as it was stored) is taken back, what is true now is counted.
      IF cur.category = 'completed' OR next_category = 'completed' THEN
        PERFORM "crewboard_count_completions"(
          ARRAY[cur.project_id, cur.project_id], ARRAY[cur.entered_at, next_entered],
          ARRAY[CASE WHEN cur.category = 'completed' THEN -1 ELSE 0 END,
            CASE WHEN next_category = 'completed' THEN 1 ELSE 0 END]);
      END IF;
      RETURN NULL;
    END IF;
  END IF;
  PERFORM "crewboard_rebuild_task_spans"(ids);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- The spans and monthly completions of the history written before this migration, by category now.
DELETE FROM "project_completion_months";--> statement-breakpoint
DELETE FROM "task_status_spans";--> statement-breakpoint
SELECT "crewboard_rebuild_task_spans"(coalesce((SELECT array_agg("id") FROM "tasks"), '{}'));--> statement-breakpoint
ALTER TABLE "task_status_spans" ALTER COLUMN "category" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "task_status_spans" ALTER COLUMN "entered_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "task_status_spans" ADD CONSTRAINT "task_status_spans_category_check" CHECK ("category" in ('backlog', 'unstarted', 'started', 'completed', 'canceled'));
