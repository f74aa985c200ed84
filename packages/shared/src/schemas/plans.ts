import { z } from 'zod';
import {
  CURRENCY,
  ORDER_PAY_METHODS,
  ORDER_PERIODS,
  ORDER_STATUSES,
  PAY_METHODS,
  PERIOD_NAMES,
} from '../plans.ts';
import { couponCodeInput } from './coupons.ts';
import { pageRequest } from './paging.ts';

/** One plan of `/web/plan/list`: `unit_price` in fen per simultaneous connection. */
export const planSchema = z.object({
  period: z.enum(PERIOD_NAMES),
  months: z.number().int(),
  days: z.number().int(),
  unit_price: z.number().int(),
});

/**
 * One way to pay of `/web/plan/list`: a method and who serves it, a gateway of the back office's
 * (its id for order/create, its name for buyers in the request's language) or, with `gateway_id`
 * null, the site's own provider; `fee_bps` is added to the amount (0: none).
 */
export const payOptionSchema = z.object({
  pay_method: z.enum(PAY_METHODS),
  gateway_id: z.uuid().nullable(),
  name: z.string().nullable(),
  fee_bps: z.number().int(),
});

/**
 * Reply of `/web/plan/list`: `pay_methods` are those the site's own provider serves, in PAY_METHODS
 * order (what clients without gateways know); `pay_options` every way to pay, the site's own provider
 * first, then the enabled gateways in their position order.
 */
export const planListSchema = z.object({
  currency: z.literal(CURRENCY),
  max_connections: z.number().int(),
  plans: z.array(planSchema),
  pay_methods: z.array(z.enum(PAY_METHODS)),
  pay_options: z.array(payOptionSchema),
});

const orderId = z.string().trim().min(1).max(64);

export const orderCreateRequest = z.object({
  period: z.enum(PERIOD_NAMES),
  connections: z.coerce.number().int().min(1).max(1000),
  pay_method: z.enum(PAY_METHODS).default('card'),
  /** A payment gateway of the back office's that serves the method; unset: the site's own provider. */
  gateway_id: z.uuid().optional(),
  /** A coupon's code, any case; the server prices it (refused with its reason when it does not apply). */
  coupon_code: couponCodeInput.optional(),
});

export const orderListRequest = pageRequest;

export const orderIdRequest = z.object({ order_id: orderId });

/** One order as every order call presents it; times in unix seconds, 0 = not yet. */
export const orderSchema = z.object({
  order_id: z.string(),
  /** `days`: a redeem code's days at the account's connections (`days` says how many). */
  period: z.enum(ORDER_PERIODS),
  months: z.number().int(),
  days: z.number().int(),
  connections: z.number().int(),
  amount: z.number().int(),
  /** What a coupon took off the price (fen; 0: none), and its code. */
  discount: z.number().int(),
  coupon_code: z.string().nullable(),
  currency: z.literal(CURRENCY),
  /**
   * The method the buyer chose; a paid order was paid with it (its checkout offers no other).
   * `redeem_code`: the record of a redemption (amount 0, paid when made).
   */
  pay_method: z.enum(ORDER_PAY_METHODS),
  status: z.enum(ORDER_STATUSES),
  create_time: z.number().int(),
  pay_time: z.number().int(),
  latest_pay_time: z.number().int(),
  /** Where to pay: set only while the order can still be paid. */
  checkout_url: z.string().nullable(),
  /** The USDT the buyer was asked for, when a USDT gateway converted the amount; else null. */
  usdt_amount: z.string().nullable(),
});

/**
 * Reply of `/web/order/create`, in fen: `amount` is the price less the coupon's `discount`, plus the
 * gateway's `fee` on what is left. An order that comes to nothing is paid at once: `paid` true, and
 * `checkout_url` empty (there is nothing to pay).
 */
export const createdOrderSchema = z.object({
  order_id: z.string(),
  amount: z.number().int(),
  discount: z.number().int(),
  fee: z.number().int(),
  latest_pay_time: z.number().int(),
  checkout_url: z.string(),
  paid: z.boolean(),
});

/** Reply of `/web/order/list`. */
export const orderListSchema = z.object({
  total: z.number().int(),
  list: z.array(orderSchema),
});
