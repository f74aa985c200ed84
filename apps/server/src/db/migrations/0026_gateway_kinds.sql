ALTER TYPE "public"."gateway_kind" ADD VALUE 'alipay_f2f';--> statement-breakpoint
ALTER TYPE "public"."gateway_kind" ADD VALUE 'epusdt';