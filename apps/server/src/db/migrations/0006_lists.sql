DROP INDEX "orders_user_idx";--> statement-breakpoint
CREATE INDEX "users_invited_by_idx" ON "users" USING btree ("invited_by","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "invite_rewards_unclaimed_idx" ON "invite_rewards" USING btree ("inviter_id","minutes") WHERE "invite_rewards"."claimed_at" is null;--> statement-breakpoint
CREATE INDEX "orders_user_idx" ON "orders" USING btree ("user_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);