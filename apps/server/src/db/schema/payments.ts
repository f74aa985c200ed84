import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { orders } from './orders.ts';

/**
 * Every payment a provider reported, once per provider transaction id (the unique index is what makes
 * a repeated delivery credit nothing). `outcome` says what it did: `credited`, or why it did not
 * (`amount_mismatch`, `already_paid`: money the operator must refund or reconcile by hand).
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    provider: text('provider').notNull(),
    providerPaymentId: text('provider_payment_id').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    outcome: text('outcome').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    // When the operator dealt with a payment that gave no time: `refunded`, or `reconciled` by hand.
    settledAt: timestamp('settled_at', { withTimezone: true }),
    settlement: text('settlement'),
  },
  (table) => [
    uniqueIndex('payments_provider_payment_key').on(table.provider, table.providerPaymentId),
    // An order's payments (an account's payments in the back office).
    index('payments_order_idx').on(table.orderId),
    // The dashboard's revenue, read from this index alone; and the payments left for the operator.
    index('payments_credited_idx')
      .on(table.createdAt, table.provider, table.currency, table.amount)
      .where(sql`${table.outcome} = 'credited'`),
    index('payments_needs_operator_idx')
      .on(table.createdAt)
      .where(sql`${table.outcome} <> 'credited' and ${table.settledAt} is null`),
    // The orders and payments screen, newest first, by outcome or provider.
    index('payments_created_idx').on(table.createdAt),
  ],
);

export type PaymentRow = typeof payments.$inferSelect;
