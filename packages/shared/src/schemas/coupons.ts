import { z } from 'zod';
import { PERIOD_NAMES } from '../plans.ts';

/** A code as a buyer types it: any case, spaces around it ignored (the server reads it in capitals). */
export const couponCodeInput = z.string().trim().min(1).max(64);

/** Request of `/web/coupon/check`: the code and what it would be used on. */
export const couponCheckRequest = z.object({
  code: couponCodeInput,
  period: z.enum(PERIOD_NAMES),
  connections: z.coerce.number().int().min(1).max(1000),
});

/**
 * Reply of `/web/coupon/check`, in fen: the price before the coupon, what it takes off, and the price
 * after (a gateway's fee is added to that after, as order/create does).
 */
export const couponCheckSchema = z.object({
  code: z.string(),
  price: z.number().int(),
  discount: z.number().int(),
  discounted: z.number().int(),
});

export type CouponCheckRequest = z.infer<typeof couponCheckRequest>;
export type CouponCheck = z.infer<typeof couponCheckSchema>;
