CREATE TABLE "node_reports" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "node_reports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"node_id" uuid NOT NULL,
	"sequence" bigint NOT NULL,
	"window_from" timestamp with time zone NOT NULL,
	"window_to" timestamp with time zone NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"rate_percent" integer NOT NULL,
	"credentials" integer NOT NULL,
	"upload" bigint NOT NULL,
	"download" bigint NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "traffic_hourly" (
	"slot_id" uuid NOT NULL,
	"node_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"upload" bigint DEFAULT 0 NOT NULL,
	"download" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "traffic_hourly_slot_id_node_id_hour_pk" PRIMARY KEY("slot_id","node_id","hour")
);
--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "rate_percent" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "token_hash" text;--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "revision" bigint DEFAULT nextval('device_slot_revisions') NOT NULL;--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "last_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "status" jsonb;--> statement-breakpoint
ALTER TABLE "node_reports" ADD CONSTRAINT "node_reports_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "traffic_hourly" ADD CONSTRAINT "traffic_hourly_slot_id_device_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."device_slots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "traffic_hourly" ADD CONSTRAINT "traffic_hourly_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "node_reports_node_sequence_key" ON "node_reports" USING btree ("node_id","sequence");--> statement-breakpoint
CREATE INDEX "node_reports_hour_idx" ON "node_reports" USING btree ("hour");--> statement-breakpoint
CREATE INDEX "traffic_hourly_node_hour_idx" ON "traffic_hourly" USING btree ("node_id","hour");--> statement-breakpoint
CREATE UNIQUE INDEX "nodes_token_key" ON "nodes" USING btree ("token_hash");