import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** Every change to an account's expiry: why, by how much, from what to what. */
export const expiryLedger = pgTable(
  'expiry_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // trial | invite_reward | purchase | …
    reason: text('reason').notNull(),
    // What caused it, when there is a record of its own (an order id for a purchase).
    ref: text('ref'),
    // The change of the remaining time, from max(now, from_expire_at); negative when an upgrade converts it.
    seconds: integer('seconds').notNull(),
    // The connections from then on.
    connections: integer('connections'),
    fromExpireAt: timestamp('from_expire_at', { withTimezone: true }),
    toExpireAt: timestamp('to_expire_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('expiry_ledger_user_idx').on(table.userId, table.createdAt)],
);

export type ExpiryLedgerRow = typeof expiryLedger.$inferSelect;
