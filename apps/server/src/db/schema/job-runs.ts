import { bigint, boolean, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** When each scheduled job last ran, on whichever instance, and what it did. */
export const jobRuns = pgTable('job_runs', {
  name: text('name').primaryKey(),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true }).notNull(),
  lastFinishedAt: timestamp('last_finished_at', { withTimezone: true }),
  lastResult: jsonb('last_result'),
});

export type JobRunRow = typeof jobRuns.$inferSelect;

/** The latest runs of each job on every instance, failures included (the back office's jobs screen). */
export const jobRunLog = pgTable(
  'job_run_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }).notNull(),
    succeeded: boolean('succeeded').notNull(),
    result: jsonb('result'),
    error: text('error'),
  },
  (table) => [index('job_run_log_name_idx').on(table.name, table.id.desc().nullsFirst())],
);

export type JobRunLogRow = typeof jobRunLog.$inferSelect;
