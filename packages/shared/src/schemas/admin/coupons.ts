import { z } from 'zod';
import { COUPON_CODE_PATTERN, COUPON_KINDS, COUPON_STATUSES, normalizeCouponCode } from '../../coupons.ts';
import { PERIOD_NAMES } from '../../plans.ts';
import { isoTime, sortQuery } from './common.ts';

/** The largest fixed amount off: ¥100 000 in fen. */
export const COUPON_FIXED_MAX = 10_000_000;

const code = z.string().transform(normalizeCouponCode).pipe(z.string().regex(COUPON_CODE_PATTERN));

const terms = {
  kind: z.enum(COUPON_KINDS),
  /** Percent (1–100) for `percent`, fen for `fixed`. */
  value: z.number().int().min(1).max(COUPON_FIXED_MAX),
  /** The price (before the coupon) must be at least this, in fen; 0: any. */
  min_amount: z.number().int().min(0).max(COUPON_FIXED_MAX).default(0),
  /** The periods it applies to; empty: every period. */
  periods: z
    .array(z.enum(PERIOD_NAMES))
    .refine((list) => new Set(list).size === list.length, 'each period once')
    .default([]),
  /** The connection counts it applies to; empty: any. */
  connections: z.array(z.number().int().min(1).max(1000)).max(100).default([]),
  first_order_only: z.boolean().default(false),
  valid_from: isoTime.nullable().default(null),
  valid_to: isoTime.nullable().default(null),
  /** Uses in all, held by unpaid orders or taken by paid ones; null: no cap. */
  max_uses: z.number().int().min(1).max(1_000_000).nullable().default(null),
  /** Uses per account; null: no cap. */
  max_uses_per_user: z.number().int().min(1).max(1000).nullable().default(null),
};

type Terms = { kind?: string; value?: number; valid_from?: string | null; valid_to?: string | null };
const percentAtMost100 = (coupon: Terms) => coupon.kind !== 'percent' || (coupon.value ?? 0) <= 100;
const endsAfterStart = (coupon: Terms) =>
  !coupon.valid_from || !coupon.valid_to || Date.parse(coupon.valid_to) > Date.parse(coupon.valid_from);
const percentRule = { message: 'a percent is at most 100', path: ['value'] };
const periodRule = { message: 'the end must come after the start', path: ['valid_to'] };

/** A new coupon: a typed code, or none for one generated. */
export const couponCreateRequest = z
  .object({ code: code.optional(), ...terms })
  .refine(percentAtMost100, percentRule)
  .refine(endsAfterStart, periodRule);
export type CouponCreateRequest = z.infer<typeof couponCreateRequest>;

/** A change of its terms (its code stays); orders made before keep the terms they were priced at. */
export const couponUpdateRequest = z
  .object({
    kind: terms.kind.optional(),
    value: terms.value.optional(),
    min_amount: terms.min_amount.unwrap().optional(),
    periods: terms.periods.unwrap().optional(),
    connections: terms.connections.unwrap().optional(),
    first_order_only: z.boolean().optional(),
    valid_from: isoTime.nullable().optional(),
    valid_to: isoTime.nullable().optional(),
    max_uses: terms.max_uses.unwrap().optional(),
    max_uses_per_user: terms.max_uses_per_user.unwrap().optional(),
  })
  .refine(endsAfterStart, periodRule);
export type CouponUpdateRequest = z.infer<typeof couponUpdateRequest>;

/** Pause, resume or end: an ended coupon stays ended. */
export const COUPON_ACTIONS = ['pause', 'resume', 'end'] as const;
export const couponStatusRequest = z.object({ action: z.enum(COUPON_ACTIONS) });

export const COUPON_SORTS = ['created_at', 'code', 'uses', 'discount_total'] as const;
export const couponListQuery = sortQuery.extend({
  status: z.enum(COUPON_STATUSES).optional(),
  /** Part of the code, any case. */
  code: z.string().trim().max(64).optional(),
  sort: z.enum(COUPON_SORTS).default('created_at'),
});
export type CouponListQuery = z.infer<typeof couponListQuery>;

/** A coupon as the back office shows it, with its uses and what it took off paid orders. */
export const couponSchema = z.object({
  id: z.uuid(),
  code: z.string(),
  kind: z.enum(COUPON_KINDS),
  value: z.number().int(),
  min_amount: z.number().int(),
  periods: z.array(z.enum(PERIOD_NAMES)),
  connections: z.array(z.number().int()),
  first_order_only: z.boolean(),
  valid_from: isoTime.nullable(),
  valid_to: isoTime.nullable(),
  max_uses: z.number().int().nullable(),
  max_uses_per_user: z.number().int().nullable(),
  status: z.enum(COUPON_STATUSES),
  /** Unpaid orders that may still be paid, holding a use. */
  uses_held: z.number().int(),
  /** Paid orders. */
  uses_paid: z.number().int(),
  /** The fen taken off paid orders' prices: the revenue the coupon gave up. */
  discount_total: z.number().int(),
  created_at: isoTime,
  updated_at: isoTime,
});
export type Coupon = z.infer<typeof couponSchema>;

/** At most this many coupons in one list reply: filter to find others. */
export const COUPON_LIST_MAX = 500;
export const couponListSchema = z.object({ items: z.array(couponSchema), more: z.boolean() });
