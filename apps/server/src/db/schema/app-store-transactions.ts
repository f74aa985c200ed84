import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Every App Store transaction that reached us, once per transaction id (the primary key is what
 * makes a repeated or concurrent delivery give nothing more). `granted_seconds` is the time it added
 * to the account; a refund takes back `refunded_seconds` of it, which a reversed refund gives back.
 */
export const appStoreTransactions = pgTable(
  'app_store_transactions',
  {
    transactionId: text('transaction_id').primaryKey(),
    originalTransactionId: text('original_transaction_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    productId: text('product_id').notNull(),
    connections: integer('connections').notNull(),
    purchasedAt: timestamp('purchased_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    // The notification that brought it (its notificationUUID).
    notificationId: text('notification_id').notNull(),
    grantedSeconds: integer('granted_seconds').notNull().default(0),
    refundedSeconds: integer('refunded_seconds').notNull().default(0),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('app_store_transactions_original_idx').on(table.originalTransactionId)],
);

export type AppStoreTransactionRow = typeof appStoreTransactions.$inferSelect;
