import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { payments } from './payments.ts';
import { staff } from './staff.ts';

/**
 * Money given back through the provider's refund API, one whole payment at a time. A refund is
 * written `pending` before the provider is asked (its id is the idempotency key sent), so a retry
 * after a lost answer asks again under the same key and the provider refunds once.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    provider: text('provider').notNull(),
    providerRefundId: text('provider_refund_id'),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    // pending (asked, or to ask again) | succeeded | failed (the provider refused; may be asked anew)
    status: text('status').notNull(),
    // take_back: the order's time leaves the account; keep: it stays. Either way a ledger row.
    timeAction: text('time_action').notNull(),
    secondsTaken: integer('seconds_taken'),
    reason: text('reason').notNull(),
    staffId: uuid('staff_id').references(() => staff.id, { onDelete: 'set null' }),
    // The last try's failure: the provider's refusal, or why it could not be asked.
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // One live refund per payment: concurrent clicks write one row.
    uniqueIndex('refunds_live_payment_key')
      .on(table.paymentId)
      .where(sql`${table.status} <> 'failed'`),
    uniqueIndex('refunds_provider_key').on(table.provider, table.providerRefundId),
    // The attention queue: refunds that failed or wait to be asked again.
    index('refunds_attention_idx')
      .on(table.createdAt)
      .where(sql`${table.status} <> 'succeeded'`),
  ],
);

export type RefundRow = typeof refunds.$inferSelect;
