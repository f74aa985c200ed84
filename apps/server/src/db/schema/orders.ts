import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { OrderPayMethod } from '@skyway/shared/plans';
import { coupons } from './coupons.ts';
import { users } from './users.ts';

/**
 * An order snapshots what was bought and its price when it was created. Its status is `unpaid` until
 * a payment, the user, a newer order or the deadline settles it; a late payment still makes it `paid`.
 */
export const orders = pgTable(
  'orders',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    period: text('period').notNull(),
    months: integer('months').notNull(),
    days: integer('days').notNull(),
    connections: integer('connections').notNull(),
    unitPrice: integer('unit_price').notNull(),
    amount: integer('amount').notNull(),
    // A coupon's use (its code as the buyer had it, and the fen it took off the price); the amount is
    // already the price less the discount, plus the gateway's fee.
    couponId: uuid('coupon_id').references(() => coupons.id, { onDelete: 'restrict' }),
    couponCode: text('coupon_code'),
    discount: integer('discount').notNull().default(0),
    currency: text('currency').notNull(),
    payMethod: text('pay_method').$type<OrderPayMethod>().notNull(),
    provider: text('provider').notNull(),
    // The provider's checkout (a Stripe Checkout Session id; the sandbox's own token).
    providerRef: text('provider_ref'),
    checkoutUrl: text('checkout_url'),
    // The USDT a USDT gateway asked the buyer for (its own conversion of the amount), as it gave it.
    usdtAmount: text('usdt_amount'),
    status: text('status').notNull().default('unpaid'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    latestPayAt: timestamp('latest_pay_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    // Set when the user or a newer order closes an order whose checkout is open at the provider:
    // from then on the checkout is to be closed there (null once it is, or when there is none). An
    // attempt moves it forward by a lease, so one instance at a time tries, and a failure is retried.
    checkoutCloseDueAt: timestamp('checkout_close_due_at', { withTimezone: true }),
  },
  (table) => [
    // A user's list, newest first, a page at a time; its count reads this index alone. Nulls first, as
    // the list's `order by … desc` sorts them, or PostgreSQL would sort the entries again.
    index('orders_user_idx').on(
      table.userId,
      table.createdAt.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    // The back office's list of all orders, newest first (by status, provider or dates as it goes).
    index('orders_created_idx').on(table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
    // The dashboard's paid orders by the time they were paid.
    index('orders_paid_at_idx')
      .on(table.paidAt)
      .where(sql`${table.status} = 'paid'`),
    index('orders_unpaid_idx')
      .on(table.latestPayAt)
      .where(sql`${table.status} = 'unpaid'`),
    index('orders_checkout_close_idx')
      .on(table.checkoutCloseDueAt)
      .where(sql`${table.checkoutCloseDueAt} is not null`),
    // A coupon's uses, counted under its lock at each order, and its list's figures.
    index('orders_coupon_idx')
      .on(table.couponId, table.status)
      .where(sql`${table.couponId} is not null`),
    uniqueIndex('orders_provider_ref_key').on(table.provider, table.providerRef),
  ],
);

export type OrderRow = typeof orders.$inferSelect;
