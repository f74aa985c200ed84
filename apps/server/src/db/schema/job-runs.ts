import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** When each scheduled job last ran, on whichever instance, and what it did. */
export const jobRuns = pgTable('job_runs', {
  name: text('name').primaryKey(),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true }).notNull(),
  lastFinishedAt: timestamp('last_finished_at', { withTimezone: true }),
  lastResult: jsonb('last_result'),
});

export type JobRunRow = typeof jobRuns.$inferSelect;
