CREATE TABLE "task_activity" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"task_id" uuid NOT NULL,
	"actor_id" uuid,
	"field" text NOT NULL,
	"old_value" text,
	"new_value" text,
	"old_label" text,
	"new_label" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_activity_field_check" CHECK ("task_activity"."field" in ('title', 'description', 'status', 'priority', 'assignee', 'due_date', 'project', 'tags'))
);
--> statement-breakpoint
CREATE TABLE "task_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"task_id" uuid NOT NULL,
	"uploader_id" uuid,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_checklist_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"task_id" uuid NOT NULL,
	"title" text NOT NULL,
	"done" boolean DEFAULT false NOT NULL,
	"position" double precision NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"task_id" uuid NOT NULL,
	"author_id" uuid,
	"body" text NOT NULL,
	"mentions" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "task_watchers" (
	"task_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"watching" boolean NOT NULL,
	CONSTRAINT "task_watchers_task_id_user_id_pk" PRIMARY KEY("task_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox_kind_check";--> statement-breakpoint
ALTER TABLE "notification_preferences" DROP CONSTRAINT "notification_preferences_kind_check";--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "comment_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "attachment_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "checklist_total" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "checklist_done" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "task_activity" ADD CONSTRAINT "task_activity_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_activity" ADD CONSTRAINT "task_activity_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_attachments" ADD CONSTRAINT "task_attachments_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_attachments" ADD CONSTRAINT "task_attachments_uploader_id_users_id_fk" FOREIGN KEY ("uploader_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_checklist_items" ADD CONSTRAINT "task_checklist_items_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_comments" ADD CONSTRAINT "task_comments_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_comments" ADD CONSTRAINT "task_comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_watchers" ADD CONSTRAINT "task_watchers_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_watchers" ADD CONSTRAINT "task_watchers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "task_activity_task_idx" ON "task_activity" USING btree ("task_id","created_at");--> statement-breakpoint
CREATE INDEX "task_activity_status_idx" ON "task_activity" USING btree ("created_at") WHERE field = 'status';--> statement-breakpoint
CREATE INDEX "task_attachments_task_idx" ON "task_attachments" USING btree ("task_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "task_attachments_key" ON "task_attachments" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "task_checklist_task_idx" ON "task_checklist_items" USING btree ("task_id","position");--> statement-breakpoint
CREATE INDEX "task_comments_task_idx" ON "task_comments" USING btree ("task_id","created_at");--> statement-breakpoint
CREATE INDEX "task_watchers_user_idx" ON "task_watchers" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_kind_check" CHECK ("mail_outbox"."kind" in ('verify_email', 'reset_password', 'password_changed', 'email_changed', 'change_email', 'invitation', 'task_assigned', 'mentioned', 'task_comment', 'task_status', 'digest'));--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_kind_check" CHECK ("notification_preferences"."kind" in ('task_assigned', 'task_completed', 'project_updated', 'team_invite', 'mentioned', 'task_comment', 'task_status'));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('task_assigned', 'task_completed', 'project_updated', 'team_invite', 'mentioned', 'task_comment', 'task_status'));--> statement-breakpoint
-- The card's counts of comments, attachments and checklist items, on the task's own row (the board reads them with
-- it, at no cost of its own). One row changed at a time on these tables, so row triggers. A child deleted with its
-- task (cascade) finds no task row to update: nothing to do.
CREATE FUNCTION "crewboard_task_children_counted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'task_comments' THEN
    UPDATE "tasks" SET "comment_count" = "comment_count" + (CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END)
      WHERE "id" = (CASE WHEN TG_OP = 'INSERT' THEN NEW."task_id" ELSE OLD."task_id" END);
  ELSIF TG_TABLE_NAME = 'task_attachments' THEN
    UPDATE "tasks" SET "attachment_count" = "attachment_count" + (CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END)
      WHERE "id" = (CASE WHEN TG_OP = 'INSERT' THEN NEW."task_id" ELSE OLD."task_id" END);
  ELSIF TG_OP = 'INSERT' THEN
    UPDATE "tasks" SET "checklist_total" = "checklist_total" + 1, "checklist_done" = "checklist_done" + NEW."done"::int
      WHERE "id" = NEW."task_id";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "tasks" SET "checklist_total" = "checklist_total" - 1, "checklist_done" = "checklist_done" - OLD."done"::int
      WHERE "id" = OLD."task_id";
  ELSIF NEW."done" IS DISTINCT FROM OLD."done" THEN
    UPDATE "tasks" SET "checklist_done" = "checklist_done" + NEW."done"::int - OLD."done"::int WHERE "id" = NEW."task_id";
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "task_comments_counted" AFTER INSERT OR DELETE ON "task_comments"
  FOR EACH ROW EXECUTE FUNCTION "crewboard_task_children_counted"();
--> statement-breakpoint
CREATE TRIGGER "task_attachments_counted" AFTER INSERT OR DELETE ON "task_attachments"
  FOR EACH ROW EXECUTE FUNCTION "crewboard_task_children_counted"();
--> statement-breakpoint
CREATE TRIGGER "task_checklist_counted" AFTER INSERT OR DELETE OR UPDATE OF "done" ON "task_checklist_items"
  FOR EACH ROW EXECUTE FUNCTION "crewboard_task_children_counted"();
