ALTER TABLE "mail_outbox" ALTER COLUMN "text" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ALTER COLUMN "html" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "user_id" uuid;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "priority" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "code_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "checkout_close_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "app_store_subscriptions" ADD COLUMN "renewal_signed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_outbox_queue_idx" ON "mail_outbox" USING btree ("status","priority","next_attempt_at");--> statement-breakpoint
CREATE INDEX "mail_outbox_user_idx" ON "mail_outbox" USING btree ("user_id") WHERE "mail_outbox"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "orders_checkout_close_idx" ON "orders" USING btree ("checkout_close_due_at") WHERE "orders"."checkout_close_due_at" is not null;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_pending_has_body" CHECK ("mail_outbox"."status" <> 'pending' or "mail_outbox"."text" is not null);--> statement-breakpoint
-- mail_outbox rows from before the delivery queue were attempted once and never again: SMTP took
-- them (sent); without SMTP the log was their delivery, when they were written (logged); one with an
-- error was lost, so it is failed for good and shows in the attention queue. No code is kept in clear.
UPDATE "mail_outbox" SET
  "status" = CASE WHEN "sent_at" IS NOT NULL THEN 'sent' WHEN "error" IS NOT NULL THEN 'failed' ELSE 'logged' END,
  "sent_at" = CASE WHEN "sent_at" IS NULL AND "error" IS NULL THEN "created_at" ELSE "sent_at" END,
  "attempts" = 1,
  "text" = CASE WHEN "template" IN ('code_register', 'code_forget', 'code_email') THEN NULL ELSE "text" END,
  "html" = CASE WHEN "template" IN ('code_register', 'code_forget', 'code_email') THEN NULL ELSE "html" END;
--> statement-breakpoint
-- Inactive-account revocation now waits for the warning's delivery, found by the account it is about.
UPDATE "mail_outbox" SET "user_id" = "users"."id" FROM "users"
WHERE "mail_outbox"."template" = 'inactive_warning' AND lower("mail_outbox"."to") = lower("users"."email");
--> statement-breakpoint
-- A warning that was never delivered is taken back: the job warns those accounts again.
UPDATE "users" SET "inactive_warned_at" = NULL
WHERE "inactive_warned_at" IS NOT NULL AND "revoked_at" IS NULL AND NOT EXISTS (
  SELECT 1 FROM "mail_outbox" WHERE "mail_outbox"."user_id" = "users"."id"
    AND "mail_outbox"."template" = 'inactive_warning' AND "mail_outbox"."status" IN ('sent', 'logged')
    AND "mail_outbox"."created_at" >= "users"."inactive_warned_at"
);
