CREATE SEQUENCE "public"."device_slot_revisions" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "device_slots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text,
	"platform" text,
	"credential" uuid NOT NULL,
	"secret" text NOT NULL,
	"token_hash" text,
	"token_version" integer DEFAULT 1 NOT NULL,
	"active" boolean NOT NULL,
	"revision" bigint DEFAULT nextval('device_slot_revisions') NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_fetch_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "device_slots" ADD CONSTRAINT "device_slots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_slots_user_position_key" ON "device_slots" USING btree ("user_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "device_slots_credential_key" ON "device_slots" USING btree ("credential");--> statement-breakpoint
CREATE UNIQUE INDEX "device_slots_token_key" ON "device_slots" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "device_slots_revision_idx" ON "device_slots" USING btree ("revision");--> statement-breakpoint
CREATE INDEX "device_slots_active_idx" ON "device_slots" USING btree ("user_id") WHERE "device_slots"."active";