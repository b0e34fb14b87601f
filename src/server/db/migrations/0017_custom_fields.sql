CREATE TABLE "custom_fields" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"project_ids" uuid[],
	"show_on_card" boolean DEFAULT false NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"unit" text,
	"decimals" integer,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custom_fields_type_check" CHECK ("custom_fields"."type" in ('text', 'number', 'select', 'multi_select', 'date', 'person', 'checkbox', 'url'))
);
--> statement-breakpoint
CREATE TABLE "task_field_values" (
	"task_id" uuid NOT NULL,
	"field_id" uuid NOT NULL,
	"v_text" text,
	"v_num" numeric,
	"v_date" date,
	"v_option" uuid,
	"v_user" uuid,
	"v_bool" boolean
);
--> statement-breakpoint
ALTER TABLE "task_activity" DROP CONSTRAINT "task_activity_field_check";--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "fields" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "task_activity" ADD COLUMN "field_id" uuid;--> statement-breakpoint
ALTER TABLE "task_activity" ADD COLUMN "field_name" text;--> statement-breakpoint
ALTER TABLE "custom_fields" ADD CONSTRAINT "custom_fields_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_field_values" ADD CONSTRAINT "task_field_values_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_field_values" ADD CONSTRAINT "task_field_values_field_id_custom_fields_id_fk" FOREIGN KEY ("field_id") REFERENCES "public"."custom_fields"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "custom_fields_team_name_idx" ON "custom_fields" USING btree ("team_id",lower("name"));--> statement-breakpoint
CREATE INDEX "custom_fields_team_idx" ON "custom_fields" USING btree ("team_id","position");--> statement-breakpoint
CREATE INDEX "task_field_values_task_idx" ON "task_field_values" USING btree ("task_id","field_id");--> statement-breakpoint
CREATE INDEX "task_field_values_num_idx" ON "task_field_values" USING btree ("field_id","v_num","task_id") WHERE "task_field_values"."v_num" is not null;--> statement-breakpoint
CREATE INDEX "task_field_values_date_idx" ON "task_field_values" USING btree ("field_id","v_date","task_id") WHERE "task_field_values"."v_date" is not null;--> statement-breakpoint
CREATE INDEX "task_field_values_option_idx" ON "task_field_values" USING btree ("v_option","task_id") WHERE "task_field_values"."v_option" is not null;--> statement-breakpoint
CREATE INDEX "task_field_values_user_idx" ON "task_field_values" USING btree ("v_user","field_id") WHERE "task_field_values"."v_user" is not null;--> statement-breakpoint
CREATE INDEX "task_field_values_field_idx" ON "task_field_values" USING btree ("field_id");--> statement-breakpoint
ALTER TABLE "task_activity" ADD CONSTRAINT "task_activity_field_check" CHECK ("task_activity"."field" in ('title', 'description', 'status', 'priority', 'assignee', 'due_date', 'project', 'tags', 'start_date', 'parent', 'blocked_by', 'blocking', 'custom_field'));--> statement-breakpoint
-- Issue 38 (decision 0026): task_field_values follows tasks.fields. Each insert with values and each change of the
-- values rewrites the task's rows from the JSON, typed by the field's type (a key naming no field writes nothing).
CREATE FUNCTION tasks_sync_field_values() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM task_field_values WHERE task_id = NEW.id;
  END IF;
  IF NEW.fields <> '{}'::jsonb THEN
    INSERT INTO task_field_values (task_id, field_id, v_text, v_num, v_date, v_option, v_user, v_bool)
    SELECT NEW.id, f.id,
      CASE WHEN f.type IN ('text', 'url') THEN x.value #>> '{}' END,
      CASE WHEN f.type = 'number' THEN (x.value #>> '{}')::numeric END,
      CASE WHEN f.type = 'date' THEN (x.value #>> '{}')::date END,
      CASE WHEN f.type IN ('select', 'multi_select') THEN (x.value #>> '{}')::uuid END,
      CASE WHEN f.type = 'person' THEN (x.value #>> '{}')::uuid END,
      CASE WHEN f.type = 'checkbox' THEN (x.value #>> '{}')::boolean END
    FROM jsonb_each(NEW.fields) e
    JOIN custom_fields f ON f.id::text = e.key
    CROSS JOIN LATERAL jsonb_array_elements(
      CASE WHEN jsonb_typeof(e.value) = 'array' THEN e.value ELSE jsonb_build_array(e.value) END
    ) x(value);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER tasks_field_values_insert AFTER INSERT ON tasks FOR EACH ROW WHEN (NEW.fields <> '{}'::jsonb)
  EXECUTE FUNCTION tasks_sync_field_values();--> statement-breakpoint
CREATE TRIGGER tasks_field_values_update AFTER UPDATE OF fields ON tasks FOR EACH ROW WHEN (OLD.fields IS DISTINCT FROM NEW.fields)
  EXECUTE FUNCTION tasks_sync_field_values();
