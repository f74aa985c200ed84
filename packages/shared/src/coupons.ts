// Coupons (优惠码, PRODUCT.md section 9) without zod: the buy page prices a coupon with these too.
import { gatewayFee } from './money.ts';

/** `percent`: `value` percent off (1–100); `fixed`: `value` fen off. */
export const COUPON_KINDS = ['percent', 'fixed'] as const;
export type CouponKind = (typeof COUPON_KINDS)[number];

/** `paused` may be resumed; `ended` is final. */
export const COUPON_STATUSES = ['active', 'paused', 'ended'] as const;
export type CouponStatus = (typeof COUPON_STATUSES)[number];

/**
 * Why a coupon does not apply, each with its own message in every language: no such code; past its
 * end (or ended by staff); paused or not started yet; not for this period or connection count; the
 * price under its minimum; every use taken; this account's uses taken; an account that has bought before.
 */
export const COUPON_REFUSALS = [
  'coupon_unknown',
  'coupon_expired',
  'coupon_not_active',
  'coupon_not_applicable',
  'coupon_below_minimum',
  'coupon_used_up',
  'coupon_already_used',
  'coupon_first_order_only',
] as const;
export type CouponRefusal = (typeof COUPON_REFUSALS)[number];

/** Codes are kept and compared in capitals: `spring-10` and `SPRING-10` are one code. */
export const COUPON_CODE_PATTERN = /^[A-Z0-9_-]{3,32}$/;
export const normalizeCouponCode = (code: string) => code.trim().toUpperCase();

/** Generated codes: no 0/O, 1/I/L, so that a code read aloud or off a picture is typed right. */
export const GENERATED_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const GENERATED_CODE_LENGTH = 10;

export interface CouponTerms {
  kind: CouponKind;
  value: number;
}

/**
 * What a coupon takes off a price in fen: a percent rounds half up to the fen (as a gateway's fee
 * does), a fixed amount is taken whole; never more than the price, so a price never goes below zero.
 */
export function couponDiscount(price: number, coupon: CouponTerms): number {
  const off = coupon.kind === 'percent' ? gatewayFee(price, coupon.value * 100) : coupon.value;
  return Math.max(0, Math.min(price, off));
}

/** An order's money: the price, the coupon's discount, the gateway's fee on what is left, and the amount to pay. */
export interface PricedOrder {
  price: number;
  discount: number;
  fee: number;
  amount: number;
}

/** The coupon comes off first; the gateway's fee is on the discounted price (a free order has none). */
export function priceOrder(price: number, coupon: CouponTerms | null, feeBps: number): PricedOrder {
  const discount = coupon ? couponDiscount(price, coupon) : 0;
  const fee = gatewayFee(price - discount, feeBps);
  return { price, discount, fee, amount: price - discount + fee };
}
