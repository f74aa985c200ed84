import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { staff } from './staff.ts';

/**
 * What a member chose for their alerts (docs/decisions/telegram.md, "Staff alerts"); without a row,
 * the role's defaults. `last_digest_at` is set by the one conditional update that claims a day's
 * digest, so it goes once however many instances run the alerts job.
 */
export const staffAlertPreferences = pgTable('staff_alert_preferences', {
  staffId: uuid('staff_id')
    .primaryKey()
    .references(() => staff.id, { onDelete: 'cascade' }),
  channel: text('channel', { enum: ['mail', 'telegram'] }).notNull(),
  kinds: text('kinds').array().notNull(),
  delivery: text('delivery', { enum: ['at_once', 'digest'] }).notNull(),
  lastDigestAt: timestamp('last_digest_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
