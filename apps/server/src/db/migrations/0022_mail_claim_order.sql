DROP INDEX "mail_outbox_queue_idx";--> statement-breakpoint
CREATE INDEX "mail_outbox_queue_idx" ON "mail_outbox" USING btree ("status","priority","next_attempt_at","created_at");