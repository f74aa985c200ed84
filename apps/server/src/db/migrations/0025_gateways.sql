CREATE TYPE "public"."gateway_kind" AS ENUM('epay');--> statement-breakpoint
CREATE TABLE "gateways" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" "gateway_kind" NOT NULL,
	"names" jsonb NOT NULL,
	"methods" jsonb NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"fee_bps" integer,
	"enabled" boolean DEFAULT true NOT NULL,
	"settings" jsonb NOT NULL,
	"sealed_keys" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
