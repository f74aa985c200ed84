CREATE TABLE "slot_addresses" (
	"slot_id" uuid NOT NULL,
	"address" text NOT NULL,
	"country" text,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "slot_addresses_slot_id_address_pk" PRIMARY KEY("slot_id","address")
);
--> statement-breakpoint
ALTER TABLE "device_slots" ADD COLUMN "refused_addresses" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "device_slots" ADD COLUMN "refused_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "slot_addresses" ADD CONSTRAINT "slot_addresses_slot_id_device_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."device_slots"("id") ON DELETE cascade ON UPDATE no action;