import type { ReactNode } from 'react';
import { formatDateTime } from '@skyway/shared/dates';
import { formatYuan } from '@skyway/shared/money';
import type { Order, OrderStatus } from '@skyway/shared/plans';
import { useTranslation } from 'react-i18next';
import { StatusTag, type StatusTone } from '../../../components/status-tag.tsx';

const STATUS_TONE: Record<OrderStatus, StatusTone> = {
  unpaid: 'waiting',
  paid: 'done',
  expired: 'over',
  cancelled: 'over',
};

export type OrderFieldKey =
  'order_id' | 'months' | 'connections' | 'pay_method' | 'pay_time' | 'latest_pay_time' | 'amount' | 'status';

export interface OrderField {
  label: string;
  render: (order: Order) => ReactNode;
}

/** Each fact of an order with its label, written once for the table and for the phone's cards. */
export function useOrderFields(): Record<OrderFieldKey, OrderField> {
  const { t } = useTranslation(['orders', 'common']);
  const time = (value: number) => (value ? formatDateTime(value) : t('none'));
  return {
    order_id: { label: t('columns.orderId'), render: (order) => order.order_id },
    // A redeem code's days grant is counted in days, not months.
    months: {
      label: t('columns.months'),
      render: (order) =>
        order.period === 'days' ? t('common:duration.days', { count: order.days }) : order.months,
    },
    connections: { label: t('columns.connections'), render: (order) => order.connections },
    pay_method: {
      label: t('columns.payMethod'),
      render: (order) => t(`common:payMethods.${order.pay_method}`),
    },
    pay_time: { label: t('columns.payTime'), render: (order) => time(order.pay_time) },
    latest_pay_time: {
      label: t('columns.latestPayTime'),
      render: (order) => time(order.latest_pay_time),
    },
    amount: {
      label: t('columns.amount'),
      // A USDT order also shows the USDT its buyer was asked for, the amount actually sent; an order
      // with a coupon what the coupon took off.
      render: (order) =>
        [
          formatYuan(order.amount),
          order.usdt_amount === null ? null : t('usdtAmount', { amount: order.usdt_amount }),
          order.discount > 0
            ? t('couponDiscount', { code: order.coupon_code ?? '', amount: formatYuan(order.discount) })
            : null,
        ]
          .filter((part) => part !== null)
          .join(' · '),
    },
    status: {
      label: t('columns.status'),
      render: (order) => (
        <StatusTag tone={STATUS_TONE[order.status]}>{t(`status.${order.status}`)}</StatusTag>
      ),
    },
  };
}
