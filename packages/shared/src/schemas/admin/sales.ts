import { z } from 'zod';
import { LANGUAGES } from '../../languages.ts';
import { MAIL_STATUSES } from '../../mail.ts';
import { ORDER_STATUSES } from '../../plans.ts';
import { isoTime, sortQuery } from './common.ts';
import { cappedPageOf, listQuery } from '../paging.ts';

const salesListQuery = listQuery.extend(sortQuery.shape).extend({
  // The site's own provider's name, or a gateway's `<kind>:<gateway id>`.
  provider: z.string().trim().min(1).max(60).optional(),
  user_id: z.uuid().optional(),
  from: isoTime.optional(),
  to: isoTime.optional(),
});

export const orderListQuery = salesListQuery.extend({ status: z.enum(ORDER_STATUSES).optional() });

/** What became of a payment (orders/fulfilment.ts): credited, or money for the operator to deal with. */
export const PAYMENT_OUTCOMES = ['credited', 'amount_mismatch', 'already_paid', 'unknown_order'] as const;
export const paymentListQuery = salesListQuery.extend({ outcome: z.enum(PAYMENT_OUTCOMES).optional() });

/** The buyer-facing names of the payment gateway a provider name is (null: the site's own provider). */
const gatewayNames = z.record(z.enum(LANGUAGES), z.string()).nullable();

/** An order as the back office lists it, with its buyer. */
export const adminOrderSchema = z.object({
  id: z.string(),
  user_id: z.uuid(),
  email: z.string(),
  period: z.string(),
  connections: z.number().int(),
  amount: z.number().int(),
  /** The coupon the buyer used (its code as they had it), and the fen it took off the price. */
  coupon_code: z.string().nullable(),
  discount: z.number().int(),
  currency: z.string(),
  pay_method: z.string(),
  provider: z.string(),
  gateway_names: gatewayNames,
  status: z.string(),
  created_at: isoTime,
  paid_at: isoTime.nullable(),
});
export const orderListSchema = cappedPageOf(adminOrderSchema);

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
/** What becomes of the order's time when its payment is refunded. */
export const REFUND_TIME_ACTIONS = ['take_back', 'keep'] as const;

export const refundSchema = z.object({
  id: z.uuid(),
  payment_id: z.uuid(),
  provider_refund_id: z.string().nullable(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.enum(REFUND_STATUSES),
  time_action: z.enum(REFUND_TIME_ACTIONS),
  seconds_taken: z.number().int().nullable(),
  reason: z.string(),
  error: z.string().nullable(),
  created_at: isoTime,
});

/** A payment as the back office lists it, with its buyer and its refund, if any. */
export const adminPaymentSchema = z.object({
  id: z.uuid(),
  order_id: z.string(),
  user_id: z.uuid(),
  email: z.string(),
  provider: z.string(),
  gateway_names: gatewayNames,
  provider_payment_id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  outcome: z.string(),
  created_at: isoTime,
  /** When the operator dealt with a payment that gave no time, and how. */
  settled_at: isoTime.nullable(),
  settlement: z.enum(['refunded', 'reconciled']).nullable(),
  refund: refundSchema.nullable(),
});
export const paymentListSchema = cappedPageOf(adminPaymentSchema);

const reason = z.string().trim().min(3).max(500);
/** A whole payment given back through its provider, and what becomes of the order's time. */
export const refundRequest = z.object({ time: z.enum(REFUND_TIME_ACTIONS), reason });
/** A payment that gave no time, dealt with outside the back office (refunded by hand, credited by hand). */
export const settleRequest = z.object({ reason });

export const NOTICE_KINDS = ['dispute', 'refunded_elsewhere', 'notify_refused'] as const;
/** What a provider told the operator: a dispute, or a refund made in its own dashboard. */
export const providerNoticeSchema = z.object({
  id: z.uuid(),
  provider: z.string(),
  kind: z.enum(NOTICE_KINDS),
  provider_object_id: z.string(),
  payment_id: z.uuid().nullable(),
  user_id: z.uuid().nullable(),
  email: z.string().nullable(),
  amount: z.number().int(),
  currency: z.string(),
  detail: z.unknown(),
  created_at: isoTime,
});
/** Done with a notice; for money refunded elsewhere, the order's time taken back or kept. */
export const resolveNoticeRequest = z.object({ reason, time: z.enum(REFUND_TIME_ACTIONS).optional() });

/** An hour of a node whose reports and traffic ledger disagree (the daily reconciliation's finding). */
export const trafficDiscrepancySchema = z.object({
  id: z.uuid(),
  node_id: z.uuid(),
  node_name: z.string(),
  hour: isoTime,
  reported: z.object({ upload: z.number().int(), download: z.number().int() }),
  ledger: z.object({ upload: z.number().int(), download: z.number().int() }),
  found_at: isoTime,
});
/** Done with a discrepancy: what the operator found. */
export const resolveDiscrepancyRequest = z.object({ reason });

/** The attention queue: everything the operator has to look at, newest first, by kind. */
export const attentionSchema = z.object({
  payments: z.array(adminPaymentSchema),
  refunds: z.array(adminPaymentSchema),
  notices: z.array(providerNoticeSchema),
  mail: z.array(
    z.object({
      id: z.uuid(),
      to: z.string(),
      template: z.string(),
      status: z.enum(MAIL_STATUSES),
      error: z.string().nullable(),
      created_at: isoTime,
    }),
  ),
  traffic: z.array(trafficDiscrepancySchema),
  /** How many of each there are in all (each list shows the newest ATTENTION_SHOWN). */
  counts: z.object({
    payments: z.number().int(),
    refunds: z.number().int(),
    notices: z.number().int(),
    mail: z.number().int(),
    traffic: z.number().int(),
  }),
});
export const ATTENTION_SHOWN = 50;
/** Failed mail counts as needing attention for this long; after that it is history in the outbox. */
export const ATTENTION_MAIL_DAYS = 7;
