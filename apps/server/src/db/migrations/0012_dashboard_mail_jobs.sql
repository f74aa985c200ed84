CREATE TABLE "job_run_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "job_run_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone NOT NULL,
	"succeeded" boolean NOT NULL,
	"result" jsonb,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "dashboard_hours" (
	"hour" timestamp with time zone NOT NULL,
	"figure" text NOT NULL,
	"provider" text DEFAULT '' NOT NULL,
	"currency" text DEFAULT '' NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "dashboard_hours_hour_figure_provider_currency_pk" PRIMARY KEY("hour","figure","provider","currency")
);
--> statement-breakpoint
CREATE TABLE "dashboard_subscribers" (
	"subscribe_type" smallint PRIMARY KEY NOT NULL,
	"accounts" integer NOT NULL,
	"due_soon" integer NOT NULL,
	"counted_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "job_run_log_name_idx" ON "job_run_log" USING btree ("name","id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "mail_outbox_created_idx" ON "mail_outbox" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "mail_outbox_to_idx" ON "mail_outbox" USING btree (lower("to"),"created_at" DESC NULLS FIRST);