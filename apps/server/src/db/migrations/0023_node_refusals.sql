CREATE TABLE "node_refusals" (
	"node_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"times" bigint NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"last" jsonb NOT NULL,
	CONSTRAINT "node_refusals_node_id_kind_pk" PRIMARY KEY("node_id","kind")
);
--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "line_mbps" integer DEFAULT 10000 NOT NULL;--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "reported_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "node_refusals" ADD CONSTRAINT "node_refusals_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE no action;