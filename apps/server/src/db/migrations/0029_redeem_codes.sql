CREATE TABLE "redeem_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"grant_kind" text NOT NULL,
	"period" text,
	"connections" integer,
	"days" integer,
	"count" integer NOT NULL,
	"created_by" uuid,
	"created_by_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "redeem_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"batch_id" uuid NOT NULL,
	"redeemed_by" uuid,
	"redeemed_at" timestamp with time zone,
	"order_id" text,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "redeem_batches" ADD CONSTRAINT "redeem_batches_created_by_staff_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redeem_codes" ADD CONSTRAINT "redeem_codes_batch_id_redeem_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."redeem_batches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redeem_codes" ADD CONSTRAINT "redeem_codes_redeemed_by_users_id_fk" FOREIGN KEY ("redeemed_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "redeem_batches_created_idx" ON "redeem_batches" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "redeem_codes_redeemed_idx" ON "redeem_codes" USING btree ("batch_id","redeemed_at") WHERE "redeem_codes"."redeemed_at" is not null;--> statement-breakpoint
CREATE INDEX "redeem_codes_revoked_idx" ON "redeem_codes" USING btree ("batch_id") WHERE "redeem_codes"."revoked_at" is not null;