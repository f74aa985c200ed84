import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Operator settings (open_trial, trial_minute, …); a missing key takes its default from the code. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
