CREATE TABLE "traffic_discrepancies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"node_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"reported_upload" bigint NOT NULL,
	"reported_download" bigint NOT NULL,
	"ledger_upload" bigint NOT NULL,
	"ledger_download" bigint NOT NULL,
	"found_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" uuid,
	"resolution" text
);
--> statement-breakpoint
ALTER TABLE "traffic_discrepancies" ADD CONSTRAINT "traffic_discrepancies_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "traffic_discrepancies" ADD CONSTRAINT "traffic_discrepancies_resolved_by_staff_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "traffic_discrepancies_node_hour_key" ON "traffic_discrepancies" USING btree ("node_id","hour");--> statement-breakpoint
CREATE INDEX "traffic_discrepancies_open_idx" ON "traffic_discrepancies" USING btree ("found_at") WHERE "traffic_discrepancies"."resolved_at" is null;