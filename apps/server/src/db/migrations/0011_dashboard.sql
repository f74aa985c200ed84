CREATE INDEX "users_expire_at_idx" ON "users" USING btree ("expire_at","subscribe_type");--> statement-breakpoint
CREATE INDEX "trial_claims_claimed_at_idx" ON "trial_claims" USING btree ("claimed_at");--> statement-breakpoint
CREATE INDEX "orders_paid_at_idx" ON "orders" USING btree ("paid_at") WHERE "orders"."status" = 'paid';--> statement-breakpoint
CREATE INDEX "payments_credited_idx" ON "payments" USING btree ("created_at","provider","currency","amount") WHERE "payments"."outcome" = 'credited';--> statement-breakpoint
CREATE INDEX "payments_needs_operator_idx" ON "payments" USING btree ("created_at") WHERE "payments"."outcome" <> 'credited';