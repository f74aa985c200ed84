CREATE TABLE "app_store_subscriptions" (
	"original_transaction_id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"product_id" text NOT NULL,
	"connections" integer NOT NULL,
	"latest_transaction_id" text NOT NULL,
	"expires_at" timestamp with time zone,
	"covered_until" timestamp with time zone,
	"auto_renew" boolean DEFAULT true NOT NULL,
	"pending_product_id" text,
	"environment" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_store_transactions" (
	"transaction_id" text PRIMARY KEY NOT NULL,
	"original_transaction_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"product_id" text NOT NULL,
	"connections" integer NOT NULL,
	"purchased_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"notification_id" text NOT NULL,
	"granted_seconds" integer DEFAULT 0 NOT NULL,
	"refunded_seconds" integer DEFAULT 0 NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_store_subscriptions" ADD CONSTRAINT "app_store_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_store_transactions" ADD CONSTRAINT "app_store_transactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "app_store_subscriptions_user_idx" ON "app_store_subscriptions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "app_store_transactions_original_idx" ON "app_store_transactions" USING btree ("original_transaction_id");