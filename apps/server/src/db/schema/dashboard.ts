import { bigint, integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The dashboard's figures per hour, written by the dashboard job for hours that ended at least a few
 * minutes ago (modules/dashboard/rollup.ts). A window's figure is the sum of its whole hours here and
 * a live count of the rest. `rolled` marks each hour done, so the hours without any activity count.
 */
export const dashboardHours = pgTable(
  'dashboard_hours',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    // revenue | paid_orders | new_accounts | trials | conversions | rolled
    figure: text('figure').notNull(),
    provider: text('provider').notNull().default(''),
    currency: text('currency').notNull().default(''),
    // Money in the currency's minor unit (revenue); 0 for the other figures.
    amount: bigint('amount', { mode: 'number' }).notNull().default(0),
    count: integer('count').notNull(),
  },
  (table) => [primaryKey({ columns: [table.hour, table.figure, table.provider, table.currency] })],
);

/** Accounts with access, by subscribe type, and those due to renew within 7 days, as last counted. */
export const dashboardSubscribers = pgTable('dashboard_subscribers', {
  subscribeType: smallint('subscribe_type').primaryKey(),
  accounts: integer('accounts').notNull(),
  dueSoon: integer('due_soon').notNull(),
  countedAt: timestamp('counted_at', { withTimezone: true }).notNull(),
});
