import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The plans on sale: periods are fixed by the legal text, unit prices (fen per connection) are the operator's. */
export const plans = pgTable('plans', {
  period: text('period').primaryKey(),
  months: integer('months').notNull(),
  days: integer('days').notNull(),
  unitPrice: integer('unit_price').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
