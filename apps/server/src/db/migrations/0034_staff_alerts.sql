CREATE TABLE "telegram_staff_links" (
	"staff_id" uuid PRIMARY KEY NOT NULL,
	"chat_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "telegram_staff_links_chat_id_unique" UNIQUE("chat_id")
);
--> statement-breakpoint
CREATE TABLE "staff_alert_preferences" (
	"staff_id" uuid PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"kinds" text[] NOT NULL,
	"delivery" text NOT NULL,
	"last_digest_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "telegram_bind_tokens" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "telegram_bind_tokens" ADD COLUMN "staff_id" uuid;--> statement-breakpoint
ALTER TABLE "telegram_staff_links" ADD CONSTRAINT "telegram_staff_links_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_alert_preferences" ADD CONSTRAINT "staff_alert_preferences_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telegram_bind_tokens" ADD CONSTRAINT "telegram_bind_tokens_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "provider_notices_refused_idx" ON "provider_notices" USING btree ("created_at") WHERE "provider_notices"."kind" = 'notify_refused';--> statement-breakpoint
CREATE INDEX "telegram_bind_tokens_staff_idx" ON "telegram_bind_tokens" USING btree ("staff_id");--> statement-breakpoint
ALTER TABLE "telegram_bind_tokens" ADD CONSTRAINT "telegram_bind_tokens_one_owner" CHECK (("telegram_bind_tokens"."user_id" is null) <> ("telegram_bind_tokens"."staff_id" is null));