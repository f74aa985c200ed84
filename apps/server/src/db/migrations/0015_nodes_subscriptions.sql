CREATE TABLE "inbounds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"node_id" uuid NOT NULL,
	"protocol" text NOT NULL,
	"port" integer NOT NULL,
	"transport" text NOT NULL,
	"path" text,
	"security" text NOT NULL,
	"server_name" text,
	"flow" text,
	"reality_public_key" text,
	"reality_short_id" text,
	"method" text,
	"server_key" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "nodes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"region" text NOT NULL,
	"host" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"periods" jsonb,
	"min_connections" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscription_fetches" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "subscription_fetches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"slot_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text,
	"user_agent" text,
	"format" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_slots" ADD COLUMN "hwid" text;--> statement-breakpoint
ALTER TABLE "inbounds" ADD CONSTRAINT "inbounds_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_fetches" ADD CONSTRAINT "subscription_fetches_slot_id_device_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."device_slots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inbounds_node_idx" ON "inbounds" USING btree ("node_id");--> statement-breakpoint
CREATE INDEX "inbounds_enabled_idx" ON "inbounds" USING btree ("node_id") WHERE "inbounds"."enabled";--> statement-breakpoint
CREATE INDEX "subscription_fetches_slot_idx" ON "subscription_fetches" USING btree ("slot_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "device_slots_hwid_key" ON "device_slots" USING btree ("user_id","hwid") WHERE "device_slots"."hwid" is not null;