CREATE TABLE "notice_reads" (
	"user_id" uuid NOT NULL,
	"notice_id" uuid NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notice_reads_user_id_notice_id_pk" PRIMARY KEY("user_id","notice_id")
);
--> statement-breakpoint
CREATE TABLE "notices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" jsonb NOT NULL,
	"body" jsonb NOT NULL,
	"body_html" jsonb NOT NULL,
	"audience" text DEFAULT 'all' NOT NULL,
	"on_download_page" boolean DEFAULT false NOT NULL,
	"by_mail" boolean DEFAULT false NOT NULL,
	"publish_at" timestamp with time zone,
	"expire_at" timestamp with time zone,
	"mail_cursor" uuid,
	"mailed" integer DEFAULT 0 NOT NULL,
	"mailed_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "about_end" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notice_reads" ADD CONSTRAINT "notice_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice_reads" ADD CONSTRAINT "notice_reads_notice_id_notices_id_fk" FOREIGN KEY ("notice_id") REFERENCES "public"."notices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_created_by_staff_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notices_published_idx" ON "notices" USING btree ("publish_at" DESC NULLS LAST) WHERE "notices"."publish_at" is not null;--> statement-breakpoint
CREATE INDEX "notices_created_idx" ON "notices" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);