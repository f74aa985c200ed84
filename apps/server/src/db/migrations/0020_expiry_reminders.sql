CREATE TABLE "expiry_reminders" (
	"user_id" uuid NOT NULL,
	"expire_at" timestamp with time zone NOT NULL,
	"days" smallint NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "expiry_reminders_user_id_expire_at_days_pk" PRIMARY KEY("user_id","expire_at","days")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mail_opt_out_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "unsubscribe_url" text;--> statement-breakpoint
ALTER TABLE "expiry_reminders" ADD CONSTRAINT "expiry_reminders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;