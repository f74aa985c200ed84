import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * One App Store auto-renewing subscription (Apple's original transaction id), bound to the account
 * that bought it. `covered_until` is how far the time it gave the account reaches (the latest
 * transaction's expiry, or the end of a billing grace period): each new transaction adds only what
 * lies beyond it.
 */
export const appStoreSubscriptions = pgTable(
  'app_store_subscriptions',
  {
    originalTransactionId: text('original_transaction_id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    // The product of the latest transaction, and its connections (from APPLE_PRODUCTS at the time).
    productId: text('product_id').notNull(),
    connections: integer('connections').notNull(),
    latestTransactionId: text('latest_transaction_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    coveredUntil: timestamp('covered_until', { withTimezone: true }),
    autoRenew: boolean('auto_renew').notNull().default(true),
    // What renews next when the user chose a downgrade (it applies at the renewal, not before).
    pendingProductId: text('pending_product_id'),
    // The signedDate of the notification that last set auto_renew or pending_product_id: Apple may
    // deliver out of order (a retry of an older one), and an older notification must not undo a newer.
    renewalSignedAt: timestamp('renewal_signed_at', { withTimezone: true }),
    environment: text('environment').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('app_store_subscriptions_user_idx').on(table.userId)],
);

export type AppStoreSubscriptionRow = typeof appStoreSubscriptions.$inferSelect;
