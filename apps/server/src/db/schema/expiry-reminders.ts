import { pgTable, primaryKey, smallint, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * The expiry reminders sent (PRODUCT.md section 7): one per account, end of access and number of
 * days before it (0: the one at the end). The key makes each go once, however many instances run
 * the job or however often; a renewal moves the end, so the new period's reminders are new rows.
 */
export const expiryReminders = pgTable(
  'expiry_reminders',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expireAt: timestamp('expire_at', { withTimezone: true }).notNull(),
    days: smallint('days').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.expireAt, table.days] })],
);
