import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Period } from '@skyway/shared/plans';
import { staff } from './staff.ts';
import { users } from './users.ts';

/**
 * A batch of redeem codes staff generated (PRODUCT.md section 9), and what each of its codes gives:
 * `plan`, what a purchase of `period` at `connections` would; `days`, that many days at the account's
 * connections. Revoking the batch refuses its unredeemed codes from then on (they are not rewritten).
 */
export const redeemBatches = pgTable(
  'redeem_batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    note: text('note').notNull().default(''),
    // plan | days
    grantKind: text('grant_kind').$type<'plan' | 'days'>().notNull(),
    period: text('period').$type<Period>(),
    connections: integer('connections'),
    days: integer('days'),
    count: integer('count').notNull(),
    createdBy: uuid('created_by').references(() => staff.id, { onDelete: 'set null' }),
    createdByEmail: text('created_by_email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('redeem_batches_created_idx').on(table.createdAt)],
);

/**
 * One code of a batch, kept as the sha-256 of its normalized text only (lib/token-hash.ts): the key
 * a redemption looks it up by. Redeemed once: by whom, when, and the order record it made.
 */
export const redeemCodes = pgTable(
  'redeem_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    batchId: uuid('batch_id')
      .notNull()
      .references(() => redeemBatches.id, { onDelete: 'restrict' }),
    redeemedBy: uuid('redeemed_by').references(() => users.id, { onDelete: 'restrict' }),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
    // The order record the redemption made (written in the same statement that takes the code, before
    // the order exists: no foreign key; orders are never deleted).
    orderId: text('order_id'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [
    // A batch's redemptions, newest first, and their count: the redeemed codes only.
    index('redeem_codes_redeemed_idx')
      .on(table.batchId, table.redeemedAt)
      .where(sql`${table.redeemedAt} is not null`),
    // A batch's codes revoked one by one, counted.
    index('redeem_codes_revoked_idx')
      .on(table.batchId)
      .where(sql`${table.revokedAt} is not null`),
  ],
);

export type RedeemBatchRow = typeof redeemBatches.$inferSelect;
