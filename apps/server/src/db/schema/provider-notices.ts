import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { payments } from './payments.ts';
import { staff } from './staff.ts';

/**
 * What a provider told us that the operator must decide on: a dispute (`dispute`), or money refunded
 * outside the back office, in the provider's dashboard (`refunded_elsewhere`). One per provider
 * object; resolved by staff with a note (and, for a refund, the time taken back or kept).
 */
export const providerNotices = pgTable(
  'provider_notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').notNull(),
    kind: text('kind').notNull(),
    // The provider's object (a dispute `dp_…`, a charge `ch_…`).
    providerObjectId: text('provider_object_id').notNull(),
    // Our payment it concerns, when we know it.
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'restrict' }),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    // What the provider said besides (a dispute's reason and status).
    detail: jsonb('detail'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: uuid('resolved_by').references(() => staff.id, { onDelete: 'set null' }),
    resolution: text('resolution'),
  },
  (table) => [
    uniqueIndex('provider_notices_object_key').on(table.provider, table.kind, table.providerObjectId),
    index('provider_notices_open_idx')
      .on(table.createdAt)
      .where(sql`${table.resolvedAt} is null`),
    // The alerts job counts each gateway's refused notifies of the last minutes.
    index('provider_notices_refused_idx')
      .on(table.createdAt)
      .where(sql`${table.kind} = 'notify_refused'`),
  ],
);

export type ProviderNoticeRow = typeof providerNotices.$inferSelect;
