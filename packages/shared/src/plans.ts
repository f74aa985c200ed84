import type { z } from 'zod';
import type {
  createdOrderSchema,
  orderCreateRequest,
  orderListSchema,
  orderSchema,
  payOptionSchema,
  planListSchema,
  planSchema,
} from './schemas/plans.ts';

/** The three periods of the legal text: a month is 31 days, half a year 183, a year 366. */
export const PERIODS = {
  month: { months: 1, days: 31 },
  half_year: { months: 6, days: 183 },
  year: { months: 12, days: 366 },
} as const;

export const PERIOD_NAMES = ['month', 'half_year', 'year'] as const;
export type Period = (typeof PERIOD_NAMES)[number];

export const CURRENCY = 'CNY';
export const DAY_SECONDS = 24 * 60 * 60;

/**
 * How a buyer pays an order, in the order the buy page offers them: the two that Chinese-speaking
 * buyers use most first. USDT is a payment gateway's alone (PRODUCT.md section 8).
 */
export const PAY_METHODS = ['alipay', 'wechat_pay', 'usdt', 'card'] as const;
export type PayMethod = (typeof PAY_METHODS)[number];

/**
 * How an order was settled, as order records say: a method of the buy page's, or `redeem_code` for the
 * record a redemption makes (never offered on the buy page).
 */
export const ORDER_PAY_METHODS = [...PAY_METHODS, 'redeem_code'] as const;
export type OrderPayMethod = (typeof ORDER_PAY_METHODS)[number];

/** Whether an order's method is one a buyer pays with (not a redemption's record). */
export const isPayMethod = (method: OrderPayMethod): method is PayMethod =>
  (PAY_METHODS as readonly string[]).includes(method);

/** What an order record gave: a period of the buy page's, or `days` (a redeem code's days grant). */
export const ORDER_PERIODS = [...PERIOD_NAMES, 'days'] as const;
export type OrderPeriod = (typeof ORDER_PERIODS)[number];

/** The methods of the site's own provider: Stripe Checkout's, or the sandbox's simulation of each. */
export const CARD_PROVIDER_METHODS = ['alipay', 'wechat_pay', 'card'] as const satisfies readonly PayMethod[];

export type Plan = z.infer<typeof planSchema>;
export type PlanList = z.infer<typeof planListSchema>;
export type PayOption = z.infer<typeof payOptionSchema>;

/** An account's access at a moment: all times in unix seconds, 0 = none. */
export interface Entitlement {
  expireAt: number;
  connections: number;
  /** A downgrade bought earlier: from `pendingFrom` on, `pendingConnections` apply. */
  pendingConnections: number | null;
  pendingFrom: number;
}

export type PurchaseEffect = 'start' | 'extend' | 'upgrade' | 'downgrade';

/** A pending downgrade whose time has come is simply the account's connections. */
export function settleEntitlement(current: Entitlement, now: number): Entitlement {
  if (current.pendingConnections === null || current.pendingFrom > now) return current;
  return { ...current, connections: current.pendingConnections, pendingConnections: null, pendingFrom: 0 };
}

/**
 * What buying `days` at `connections` does to an account (PRODUCT.md section 3), to the second:
 * - no access now: the period starts now at the bought size;
 * - the same size: the period is added to the expiry;
 * - more connections (upgrade): at once; the remaining time is converted at the new size
 *   (remaining × old / new, a pending downgrade's time at its own size), then the period is added;
 * - fewer connections (downgrade): the current size stays until the current expiry, then the bought
 *   size applies for the period. A downgrade already pending has its time converted to the new
 *   pending size, so nothing paid for is lost.
 */
export function applyPurchase(
  before: Entitlement,
  purchase: { days: number; connections: number },
  now: number,
): { effect: PurchaseEffect; after: Entitlement } {
  return applyTime(before, { seconds: purchase.days * DAY_SECONDS, connections: purchase.connections }, now);
}

/**
 * applyPurchase for a length given in seconds rather than days: the same rules, for time that is not
 * a whole period (an app-store subscription's period as the store reports it, to the second).
 */
export function applyTime(
  before: Entitlement,
  purchase: { seconds: number; connections: number },
  now: number,
): { effect: PurchaseEffect; after: Entitlement } {
  const current = settleEntitlement(before, now);
  const bought = purchase.seconds;
  const size = purchase.connections;
  if (current.expireAt <= now) {
    return {
      effect: 'start',
      after: { expireAt: now + bought, connections: size, pendingConnections: null, pendingFrom: 0 },
    };
  }
  const pending = current.pendingConnections;
  if (size >= current.connections) {
    const switchAt = pending === null ? current.expireAt : current.pendingFrom;
    const value =
      (switchAt - now) * current.connections +
      (pending === null ? 0 : (current.expireAt - switchAt) * pending);
    const remaining = Math.floor(value / size);
    return {
      effect: size === current.connections && pending === null ? 'extend' : 'upgrade',
      after: {
        expireAt: now + remaining + bought,
        connections: size,
        pendingConnections: null,
        pendingFrom: 0,
      },
    };
  }
  const pendingFrom = pending === null ? current.expireAt : current.pendingFrom;
  const tail = pending === null ? 0 : Math.floor(((current.expireAt - pendingFrom) * pending) / size);
  return {
    effect: 'downgrade',
    after: {
      expireAt: pendingFrom + tail + bought,
      connections: current.connections,
      pendingConnections: size,
      pendingFrom,
    },
  };
}

/** `cancelled`: the user cancelled it, or a newer order replaced it. */
export const ORDER_STATUSES = ['unpaid', 'paid', 'expired', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export type OrderCreateRequest = z.infer<typeof orderCreateRequest>;
export type Order = z.infer<typeof orderSchema>;
export type CreatedOrder = z.infer<typeof createdOrderSchema>;
export type OrderList = z.infer<typeof orderListSchema>;
