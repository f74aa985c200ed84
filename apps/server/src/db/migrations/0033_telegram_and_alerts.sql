CREATE TABLE "telegram_bind_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "telegram_bot" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"sealed_token" text NOT NULL,
	"username" text NOT NULL,
	"worker_id" text,
	"worker_lease_until" timestamp with time zone,
	"update_offset" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "telegram_bot_single_row" CHECK ("telegram_bot"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "telegram_links" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"chat_id" bigint NOT NULL,
	"mail_off" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "telegram_links_chat_id_unique" UNIQUE("chat_id")
);
--> statement-breakpoint
CREATE TABLE "telegram_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"chat_id" bigint NOT NULL,
	"user_id" uuid,
	"kind" text NOT NULL,
	"text" text NOT NULL,
	"priority" smallint DEFAULT 2 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "alert_incidents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"label" text NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "telegram_bind_tokens" ADD CONSTRAINT "telegram_bind_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telegram_links" ADD CONSTRAINT "telegram_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telegram_outbox" ADD CONSTRAINT "telegram_outbox_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "telegram_bind_tokens_user_idx" ON "telegram_bind_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "telegram_outbox_queue_idx" ON "telegram_outbox" USING btree ("status","priority","next_attempt_at","created_at");--> statement-breakpoint
CREATE INDEX "telegram_outbox_failed_idx" ON "telegram_outbox" USING btree ("created_at") WHERE "telegram_outbox"."status" = 'failed';--> statement-breakpoint
CREATE UNIQUE INDEX "alert_incidents_open_key" ON "alert_incidents" USING btree ("kind","subject") WHERE "alert_incidents"."closed_at" is null;