CREATE TABLE "forms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"intro" text,
	"fields" jsonb NOT NULL,
	"status" text NOT NULL,
	"assignee_id" uuid,
	"open" boolean DEFAULT true NOT NULL,
	"token_hash" text NOT NULL,
	"token_sealed" text NOT NULL,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbound_messages" (
	"message_hash" text PRIMARY KEY NOT NULL,
	"outcome" text NOT NULL,
	"reason" text,
	"task_id" uuid,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_reply_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"task_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_intake" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"token_sealed" text NOT NULL,
	"enabled_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_shares" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"token_hash" text,
	"token_sealed" text,
	"show_people" boolean DEFAULT false NOT NULL,
	"show_descriptions" boolean DEFAULT false NOT NULL,
	"updated_by_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "request_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"task_id" uuid NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "task_activity" DROP CONSTRAINT "task_activity_field_check";--> statement-breakpoint
ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox_kind_check";--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_action_check";--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "reply_to" text;--> statement-breakpoint
ALTER TABLE "forms" ADD CONSTRAINT "forms_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forms" ADD CONSTRAINT "forms_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forms" ADD CONSTRAINT "forms_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_reply_tokens" ADD CONSTRAINT "mail_reply_tokens_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_reply_tokens" ADD CONSTRAINT "mail_reply_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_intake" ADD CONSTRAINT "project_intake_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_intake" ADD CONSTRAINT "project_intake_enabled_by_id_users_id_fk" FOREIGN KEY ("enabled_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_shares" ADD CONSTRAINT "project_shares_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_shares" ADD CONSTRAINT "project_shares_updated_by_id_users_id_fk" FOREIGN KEY ("updated_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_links" ADD CONSTRAINT "request_links_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "forms_token_key" ON "forms" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "forms_project_idx" ON "forms" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "inbound_messages_received_idx" ON "inbound_messages" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "mail_reply_tokens_created_idx" ON "mail_reply_tokens" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "project_intake_token_key" ON "project_intake" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "project_shares_token_key" ON "project_shares" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "request_links_task_idx" ON "request_links" USING btree ("task_id");--> statement-breakpoint
ALTER TABLE "task_activity" ADD CONSTRAINT "task_activity_field_check" CHECK ("task_activity"."field" in ('title', 'description', 'status', 'priority', 'assignee', 'due_date', 'project', 'tags', 'start_date', 'parent', 'blocked_by', 'blocking', 'custom_field', 'estimate', 'time_entry', 'submitted'));--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_kind_check" CHECK ("mail_outbox"."kind" in ('verify_email', 'reset_password', 'password_changed', 'email_changed', 'change_email', 'invitation', 'task_assigned', 'mentioned', 'task_comment', 'task_status', 'digest', 'webhook_failing', 'request_received'));--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_action_check" CHECK ("audit_log"."action" in ('auth.sign_in', 'auth.sign_in_failed', 'auth.password_changed', 'auth.password_reset', 'auth.email_changed', 'auth.two_factor_enabled', 'auth.two_factor_disabled', 'api_token.created', 'api_token.revoked', 'team.role_changed', 'team.member_added', 'team.member_removed', 'team.deleted', 'invitation.sent', 'invitation.accepted', 'invitation.cancelled', 'project.deleted', 'team.imported', 'project.imported', 'webhook.created', 'webhook.updated', 'webhook.deleted', 'custom_field.created', 'custom_field.updated', 'custom_field.deleted', 'project.share_enabled', 'project.share_disabled', 'project.share_reset', 'form.created', 'form.updated', 'form.deleted', 'project.intake_enabled', 'project.intake_disabled', 'project.intake_reset', 'admin.user_deactivated', 'admin.user_activated', 'admin.role_set'));