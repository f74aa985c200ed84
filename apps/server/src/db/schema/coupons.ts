import { sql } from 'drizzle-orm';
import {
  boolean,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { COUPON_KINDS, COUPON_STATUSES } from '@skyway/shared/coupons';
import type { Period } from '@skyway/shared/plans';

export const couponKind = pgEnum('coupon_kind', COUPON_KINDS);
export const couponStatus = pgEnum('coupon_status', COUPON_STATUSES);

/**
 * The coupons staff made (PRODUCT.md section 9). Their uses are the orders that carry them
 * (`orders.coupon_id`): held while the order may be paid, taken once it is paid, given back when it
 * is cancelled, replaced or expires. Order creation locks the coupon's row to count them.
 */
export const coupons = pgTable(
  'coupons',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // In capitals: codes are compared without regard to case.
    code: text('code').notNull(),
    kind: couponKind('kind').notNull(),
    // Percent (1–100) or fen.
    value: integer('value').notNull(),
    minAmount: integer('min_amount').notNull().default(0),
    // Empty: every period, any connection count.
    periods: jsonb('periods').$type<Period[]>().notNull().default([]),
    connections: jsonb('connections').$type<number[]>().notNull().default([]),
    firstOrderOnly: boolean('first_order_only').notNull().default(false),
    validFrom: timestamp('valid_from', { withTimezone: true }),
    validTo: timestamp('valid_to', { withTimezone: true }),
    maxUses: integer('max_uses'),
    maxUsesPerUser: integer('max_uses_per_user'),
    status: couponStatus('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('coupons_code_key').on(sql`upper(${table.code})`)],
);

export type CouponRow = typeof coupons.$inferSelect;
