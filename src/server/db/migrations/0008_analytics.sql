-- Analytics (issue 24, decision 0018): each task's status history as spans of time, and the completions per project
-- and month, kept by the database.
--
-- A span is one stretch of time a task spent in one status: [from_at, to_at), to_at null for the status it is in
-- now. Span 0 starts when the task was created, in the old value of its first status row (or its current status
-- when it has none); each status row of task_activity starts the next span, in its new value. The spans of a task
-- are rebuilt from its rows whenever one is written, so they are the history's own definition, set out in time:
-- the status at time t is that of the span with from_at <= t < to_at. Copies of the task's project and due date
-- let every figure be read per project from an index over the period alone, never by joining the history to the
-- tasks. Both tables are derived from tasks and task_activity only: the triggers below write them (a restore
-- rebuilds them as it writes the tasks and their history), and nothing else does.
CREATE TABLE "task_status_spans" (
	"task_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"project_id" uuid NOT NULL,
	"status" text NOT NULL,
	"from_at" timestamp with time zone NOT NULL,
	"to_at" timestamp with time zone,
	"due_date" date,
	-- The task's first move into In Progress at or before this span began (cycle time), null if none yet.
	"started_at" timestamp with time zone,
	CONSTRAINT "task_status_spans_task_id_seq_pk" PRIMARY KEY("task_id","seq")
);
--> statement-breakpoint
-- Tasks completed now, per project and UTC calendar month of their completion (the start of their current span in
-- Completed), for the dashboard's month-over-month trend. Like project_task_counts (migration 0004), a writer adds
-- to the row of its connection's slot, so concurrent completions in one project do not queue behind each other;
-- the figure is the sum over the slots.
CREATE TABLE "project_completion_months" (
	"project_id" uuid NOT NULL,
	"month" date NOT NULL,
	"slot" integer NOT NULL,
	"completed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "project_completion_months_project_id_month_slot_pk" PRIMARY KEY("project_id","month","slot")
);
--> statement-breakpoint
ALTER TABLE "project_completion_months" ADD CONSTRAINT "project_completion_months_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- Tasks completed now, by when (throughput, cycle time, the burn-up's completions, the dashboard's month edges).
CREATE INDEX "task_status_spans_done_idx" ON "task_status_spans" USING btree ("project_id","from_at") INCLUDE ("started_at") WHERE "to_at" IS NULL AND "status" = 'completed';
--> statement-breakpoint
-- Open tasks, by how long they have been in their status (ageing).
CREATE INDEX "task_status_spans_open_idx" ON "task_status_spans" USING btree ("project_id","from_at") INCLUDE ("status") WHERE "to_at" IS NULL AND "status" <> 'completed';
--> statement-breakpoint
-- Open tasks with a due date, by due date (the overdue trend).
CREATE INDEX "task_status_spans_open_due_idx" ON "task_status_spans" USING btree ("project_id","due_date") INCLUDE ("from_at") WHERE "to_at" IS NULL AND "status" <> 'completed' AND "due_date" IS NOT NULL;
--> statement-breakpoint
-- Spans that ended, by when: what was true at a week's end and changed since (burn-up, overdue).
CREATE INDEX "task_status_spans_closed_idx" ON "task_status_spans" USING btree ("project_id","to_at") INCLUDE ("status","from_at","due_date") WHERE "to_at" IS NOT NULL;
--> statement-breakpoint
-- Open tasks per project, assignee and priority, read without the table (the workload chart).
CREATE INDEX "tasks_open_workload_idx" ON "tasks" USING btree ("project_id","assignee_id","priority") WHERE "status" <> 'completed';
--> statement-breakpoint
-- Adds completions (+1) and takes them back (-1) per project and UTC month, in this connection's slot; projects
-- deleted in the same transaction are left out (their rows go by cascade).
CREATE OR REPLACE FUNCTION "crewboard_count_completions"(project_ids uuid[], times timestamptz[], signs int[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "project_completion_months" AS k ("project_id", "month", "slot", "completed")
  SELECT d.project_id, d.month, pg_backend_pid() % 8, d.n
  FROM (
    SELECT c.project_id, date_trunc('month', c.at AT TIME ZONE 'UTC')::date AS month, sum(c.sign)::int AS n
    FROM unnest(project_ids, times, signs) AS c(project_id, at, sign)
    GROUP BY 1, 2
  ) d
  WHERE d.n <> 0 AND EXISTS (SELECT 1 FROM "projects" p WHERE p."id" = d.project_id)
  -- One order for every writer: two statements over the same projects cannot deadlock.
  ORDER BY d.project_id, d.month
  ON CONFLICT ("project_id", "month", "slot") DO UPDATE SET "completed" = k."completed" + excluded."completed";
END;
$$;
--> statement-breakpoint
-- Rebuilds the spans of the tasks `ids` from their rows (a task that no longer exists keeps none), and moves their
-- completions in the monthly counts. The activity rows are read by task (task_activity_task_idx) and filtered
-- after: a plan that read the status index instead would scan every status row ever written (as one did on stale
-- statistics while the bench seeded).
CREATE OR REPLACE FUNCTION "crewboard_rebuild_task_spans"(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  gone_projects uuid[];
  gone_times timestamptz[];
  made_projects uuid[];
  made_times timestamptz[];
BEGIN
  WITH gone AS (
    DELETE FROM "task_status_spans" WHERE "task_id" = ANY(ids) RETURNING "project_id", "status", "from_at", "to_at"
  )
  SELECT array_agg(g.project_id), array_agg(g.from_at) INTO gone_projects, gone_times
  FROM gone g WHERE g.to_at IS NULL AND g.status = 'completed';

  WITH r AS MATERIALIZED (
    SELECT a.task_id, a.id, a.field, a.old_value, a.new_value, a.created_at FROM "task_activity" a
    WHERE a.task_id = ANY(ids)
  ),
  moves AS (
    SELECT r.task_id, r.old_value, r.new_value, r.created_at, (row_number() OVER w)::int AS n,
      lead(r.created_at) OVER w AS next_at
    FROM r WHERE r.field = 'status'
    WINDOW w AS (PARTITION BY r.task_id ORDER BY r.created_at, r.id)
  ),
  spans AS (
    SELECT t.id AS task_id, 0 AS seq, coalesce(m.old_value, t.status) AS status, t.created_at AS from_at,
      m.created_at AS to_at
    FROM "tasks" t LEFT JOIN moves m ON m.task_id = t.id AND m.n = 1
    WHERE t.id = ANY(ids)
    UNION ALL
    SELECT m.task_id, m.n, m.new_value, m.created_at, m.next_at FROM moves m
  ),
  made AS (
    INSERT INTO "task_status_spans" ("task_id", "seq", "project_id", "status", "from_at", "to_at", "due_date", "started_at")
    SELECT s.task_id, s.seq, t.project_id, s.status, s.from_at, s.to_at, t.due_date,
      min(s.from_at) FILTER (WHERE s.status = 'in_progress') OVER (PARTITION BY s.task_id ORDER BY s.seq)
    FROM spans s JOIN "tasks" t ON t.id = s.task_id
    ORDER BY s.task_id, s.seq
    RETURNING "project_id", "status", "from_at", "to_at"
  )
  SELECT array_agg(m.project_id), array_agg(m.from_at) INTO made_projects, made_times
  FROM made m WHERE m.to_at IS NULL AND m.status = 'completed';

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
-- New tasks: one span each, from its creation, in its status (a task created completed counts as completed then).
CREATE OR REPLACE FUNCTION "crewboard_tasks_spanned"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  done_projects uuid[];
  done_times timestamptz[];
BEGIN
  WITH made AS (
    INSERT INTO "task_status_spans" ("task_id", "seq", "project_id", "status", "from_at", "to_at", "due_date", "started_at")
    SELECT n.id, 0, n.project_id, n.status, n.created_at, NULL, n.due_date,
      CASE WHEN n.status = 'in_progress' THEN n.created_at END
    FROM new_rows n
    ORDER BY n.id
    RETURNING "project_id", "status", "from_at"
  )
  SELECT array_agg(m.project_id), array_agg(m.from_at) INTO done_projects, done_times
  FROM made m WHERE m.status = 'completed';
  IF done_projects IS NOT NULL THEN
    PERFORM "crewboard_count_completions"(done_projects, done_times,
      array_fill(1, ARRAY[array_length(done_projects, 1)]));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "tasks_spanned_insert" AFTER INSERT ON "tasks"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "crewboard_tasks_spanned"();
--> statement-breakpoint
-- Deleted tasks: their spans go, and their completions with them.
CREATE OR REPLACE FUNCTION "crewboard_tasks_unspanned"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  gone_projects uuid[];
  gone_times timestamptz[];
BEGIN
  WITH gone AS (
    DELETE FROM "task_status_spans" WHERE "task_id" IN (SELECT o.id FROM old_rows o)
    RETURNING "project_id", "status", "from_at", "to_at"
  )
  SELECT array_agg(g.project_id), array_agg(g.from_at) INTO gone_projects, gone_times
  FROM gone g WHERE g.to_at IS NULL AND g.status = 'completed';
  IF gone_projects IS NOT NULL THEN
    PERFORM "crewboard_count_completions"(gone_projects, gone_times,
      array_fill(-1, ARRAY[array_length(gone_projects, 1)]));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "tasks_unspanned_delete" AFTER DELETE ON "tasks"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "crewboard_tasks_unspanned"();
--> statement-breakpoint
-- A task moved to another project (its completion moves with it) or given another due date: its spans follow. A
-- status changed with no status row written (the app always writes one, in the same transaction, which then sets
-- the first span right): the definition's "no row: its current status", on the task's only span.
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
    SELECT s.status, s.from_at, s.project_id INTO cur FROM "task_status_spans" s
    WHERE s.task_id = NEW.id AND s.seq = 0 AND s.to_at IS NULL;
    IF NOT FOUND THEN
      PERFORM "crewboard_rebuild_task_spans"(ARRAY[NEW.id]);
    ELSIF cur.status IS DISTINCT FROM NEW.status THEN
      UPDATE "task_status_spans" SET "status" = NEW.status,
        "started_at" = CASE WHEN NEW.status = 'in_progress' THEN "from_at" END
      WHERE "task_id" = NEW.id AND "seq" = 0;
      IF cur.status = 'completed' OR NEW.status = 'completed' THEN
        PERFORM "crewboard_count_completions"(ARRAY[cur.project_id], ARRAY[cur.from_at],
          ARRAY[CASE WHEN NEW.status = 'completed' THEN 1 ELSE -1 END]);
      END IF;
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "tasks_span_fields" AFTER UPDATE OF "project_id", "due_date", "status" ON "tasks"
  FOR EACH ROW
  WHEN (OLD.project_id IS DISTINCT FROM NEW.project_id OR OLD.due_date IS DISTINCT FROM NEW.due_date
    OR OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION "crewboard_task_span_fields"();
--> statement-breakpoint
-- Status rows written (one by the app, thousands by a restore or the bench's seed) or deleted: the tasks' spans,
-- once per statement. The app's case, one row after every other of its task, ends the current span and begins the
-- next (two rows written); anything else rebuilds the tasks' spans from all their rows.
CREATE OR REPLACE FUNCTION "crewboard_task_activity_spanned"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
  r record;
  cur record;
  closed_status text;
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
    SELECT n.task_id, n.id, n.old_value, n.new_value, n.created_at INTO r FROM new_rows n WHERE n.field = 'status';
    SELECT s.seq, s.status, s.from_at, s.started_at, s.project_id, s.due_date INTO cur FROM "task_status_spans" s
    WHERE s.task_id = r.task_id AND s.to_at IS NULL
    FOR UPDATE;
    IF FOUND AND cur.from_at <= r.created_at AND NOT EXISTS (
      SELECT 1 FROM "task_activity" a
      WHERE a.task_id = r.task_id AND a.field = 'status' AND a.id <> r.id
        AND (a.created_at > r.created_at OR (a.created_at = r.created_at AND a.id > r.id))
    ) THEN
      -- The first span takes the first row's old value (the status the task was created in).
      closed_status := CASE WHEN cur.seq = 0 THEN coalesce(r.old_value, cur.status) ELSE cur.status END;
      IF cur.seq = 0 THEN
        cur.started_at := CASE WHEN closed_status = 'in_progress' THEN cur.from_at END;
      END IF;
      UPDATE "task_status_spans" SET "to_at" = r.created_at, "status" = closed_status, "started_at" = cur.started_at
      WHERE "task_id" = r.task_id AND "seq" = cur.seq;
      INSERT INTO "task_status_spans" ("task_id", "seq", "project_id", "status", "from_at", "to_at", "due_date", "started_at")
      VALUES (r.task_id, cur.seq + 1, cur.project_id, r.new_value, r.created_at, NULL, cur.due_date,
        coalesce(cur.started_at, CASE WHEN r.new_value = 'in_progress' THEN r.created_at END));
      IF cur.status = 'completed' OR r.new_value = 'completed' THEN
        PERFORM "crewboard_count_completions"(
          ARRAY[cur.project_id, cur.project_id], ARRAY[cur.from_at, r.created_at],
          ARRAY[CASE WHEN cur.status = 'completed' THEN -1 ELSE 0 END, CASE WHEN r.new_value = 'completed' THEN 1 ELSE 0 END]);
      END IF;
      RETURN NULL;
    END IF;
  END IF;
  PERFORM "crewboard_rebuild_task_spans"(ids);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "task_activity_spanned_insert" AFTER INSERT ON "task_activity"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "crewboard_task_activity_spanned"();
--> statement-breakpoint
CREATE TRIGGER "task_activity_spanned_delete" AFTER DELETE ON "task_activity"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "crewboard_task_activity_spanned"();
--> statement-breakpoint
-- The history written before this migration.
SELECT "crewboard_rebuild_task_spans"(coalesce((SELECT array_agg("id") FROM "tasks"), '{}'));
