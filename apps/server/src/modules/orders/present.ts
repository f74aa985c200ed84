import { toUnixSeconds } from '@skyway/shared/dates';
import { CURRENCY, type Order, type OrderPeriod, type OrderStatus } from '@skyway/shared/plans';
import type { OrderRow } from '../../db/schema/index.ts';

/** True while the order may still be paid: unpaid and within its deadline. */
export const isPayable = (order: OrderRow, now: Date) =>
  order.status === 'unpaid' && order.latestPayAt.getTime() > now.getTime();

/** An unpaid order past its deadline reads as expired even before the job has closed it. */
export function orderStatus(order: OrderRow, now: Date): OrderStatus {
  if (order.status === 'unpaid' && !isPayable(order, now)) return 'expired';
  return order.status as OrderStatus;
}

export function presentOrder(order: OrderRow, now: Date): Order {
  return {
    order_id: order.id,
    period: order.period as OrderPeriod,
    months: order.months,
    days: order.days,
    connections: order.connections,
    amount: order.amount,
    discount: order.discount,
    coupon_code: order.couponCode,
    currency: CURRENCY,
    pay_method: order.payMethod,
    status: orderStatus(order, now),
    create_time: toUnixSeconds(order.createdAt),
    pay_time: toUnixSeconds(order.paidAt),
    latest_pay_time: toUnixSeconds(order.latestPayAt),
    checkout_url: isPayable(order, now) ? order.checkoutUrl : null,
    usdt_amount: order.usdtAmount,
  };
}
