import type { Language } from '@skyway/shared/languages';
import type { z } from 'zod';
import type {
  adminOrderSchema,
  adminPaymentSchema,
  attentionSchema,
  providerNoticeSchema,
  refundSchema,
  trafficDiscrepancySchema,
} from '@skyway/shared/schemas/admin/sales';
import type {
  MailOutboxRow,
  OrderRow,
  ProviderNoticeRow,
  RefundRow,
  TrafficDiscrepancyRow,
} from '../../db/schema/index.ts';
import type { PaymentWithBuyer } from './repository.ts';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** The names of the gateways among a page's providers, by provider name (gatewayNamesOf). */
type GatewayNames = Map<string, Record<Language, string>>;

export function presentOrder(
  row: { order: OrderRow; email: string },
  gatewayNames: GatewayNames,
): z.infer<typeof adminOrderSchema> {
  const { order } = row;
  return {
    id: order.id,
    user_id: order.userId,
    email: row.email,
    period: order.period,
    connections: order.connections,
    amount: order.amount,
    coupon_code: order.couponCode,
    discount: order.discount,
    currency: order.currency,
    pay_method: order.payMethod,
    provider: order.provider,
    gateway_names: gatewayNames.get(order.provider) ?? null,
    status: order.status,
    created_at: order.createdAt.toISOString(),
    paid_at: iso(order.paidAt),
  };
}

export function presentRefund(refund: RefundRow): z.infer<typeof refundSchema> {
  return {
    id: refund.id,
    payment_id: refund.paymentId,
    provider_refund_id: refund.providerRefundId,
    amount: refund.amount,
    currency: refund.currency,
    status: refund.status as z.infer<typeof refundSchema>['status'],
    time_action: refund.timeAction as z.infer<typeof refundSchema>['time_action'],
    seconds_taken: refund.secondsTaken,
    reason: refund.reason,
    error: refund.error,
    created_at: refund.createdAt.toISOString(),
  };
}

export function presentPayment(
  row: PaymentWithBuyer,
  refund: RefundRow | undefined,
  gatewayNames: GatewayNames,
): z.infer<typeof adminPaymentSchema> {
  const { payment } = row;
  return {
    id: payment.id,
    order_id: payment.orderId,
    user_id: row.userId,
    email: row.email,
    provider: payment.provider,
    gateway_names: gatewayNames.get(payment.provider) ?? null,
    provider_payment_id: payment.providerPaymentId,
    amount: payment.amount,
    currency: payment.currency,
    outcome: payment.outcome,
    created_at: payment.createdAt.toISOString(),
    settled_at: iso(payment.settledAt),
    settlement: payment.settlement as z.infer<typeof adminPaymentSchema>['settlement'],
    refund: refund ? presentRefund(refund) : null,
  };
}

export function presentNotice(row: {
  notice: ProviderNoticeRow;
  userId: string | null;
  email: string | null;
}): z.infer<typeof providerNoticeSchema> {
  const { notice } = row;
  return {
    id: notice.id,
    provider: notice.provider,
    kind: notice.kind as z.infer<typeof providerNoticeSchema>['kind'],
    provider_object_id: notice.providerObjectId,
    payment_id: notice.paymentId,
    user_id: row.userId,
    email: row.email,
    amount: notice.amount,
    currency: notice.currency,
    detail: notice.detail,
    created_at: notice.createdAt.toISOString(),
  };
}

export function presentFailedMail(row: MailOutboxRow): z.infer<typeof attentionSchema>['mail'][number] {
  return {
    id: row.id,
    to: row.to,
    template: row.template,
    status: row.status,
    error: row.error,
    created_at: row.createdAt.toISOString(),
  };
}

export function presentDiscrepancy(row: {
  discrepancy: TrafficDiscrepancyRow;
  nodeName: string;
}): z.infer<typeof trafficDiscrepancySchema> {
  const { discrepancy } = row;
  return {
    id: discrepancy.id,
    node_id: discrepancy.nodeId,
    node_name: row.nodeName,
    hour: discrepancy.hour.toISOString(),
    reported: { upload: discrepancy.reportedUpload, download: discrepancy.reportedDownload },
    ledger: { upload: discrepancy.ledgerUpload, download: discrepancy.ledgerDownload },
    found_at: discrepancy.foundAt.toISOString(),
  };
}
