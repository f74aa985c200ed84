import { and, eq, gt, isNotNull, like, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { payments, providerNotices, refunds } from '../../db/schema/index.ts';
import { recordPaymentEvent } from '../payment-events/repository.ts';

/** What a provider says happened to money already taken: a refund, or a dispute the buyer opened. */
export interface MoneyNotice {
  provider: string;
  event: { id: string; type: string };
  kind: 'refunded' | 'dispute';
  /** The provider's object: the charge refunded, or the dispute. */
  objectId: string;
  /** The provider's payment id as our payments keep it (a PaymentIntent), when it has one. */
  providerPaymentId: string | null;
  amount: number;
  currency: string;
  detail?: Record<string, unknown>;
}

/**
 * Records a provider's refund or dispute notice once (per event, and per provider object). A refund
 * that the back office asked for, and that the provider had answered `pending`, becomes `succeeded`;
 * any other refund was made outside the back office (the provider's dashboard), and, like a dispute,
 * goes to the attention queue for the operator to decide on. Answers what it did.
 */
export async function recordMoneyNotice(
  db: Database,
  notice: MoneyNotice,
  now: Date,
): Promise<'duplicate' | 'refund_confirmed' | 'refund_known' | 'noted'> {
  return db.transaction(async (tx) => {
    if (!(await recordPaymentEvent(tx, notice.provider, notice.event, null, now))) return 'duplicate';
    const [payment] = notice.providerPaymentId
      ? await tx
          .select()
          .from(payments)
          .where(
            and(
              eq(payments.provider, notice.provider),
              eq(payments.providerPaymentId, notice.providerPaymentId),
            ),
          )
      : [];
    if (payment && notice.kind === 'refunded') {
      const [ours] = await tx
        .select()
        .from(refunds)
        .where(and(eq(refunds.paymentId, payment.id), ne(refunds.status, 'failed')));
      if (ours) {
        // Until the back office has written the provider's answer, the refund is its to finish.
        const confirmed = await tx
          .update(refunds)
          .set({ status: 'succeeded', updatedAt: now })
          .where(
            and(eq(refunds.id, ours.id), eq(refunds.status, 'pending'), isNotNull(refunds.providerRefundId)),
          )
          .returning({ id: refunds.id });
        return confirmed.length > 0 ? 'refund_confirmed' : 'refund_known';
      }
    }
    await tx
      .insert(providerNotices)
      .values({
        provider: notice.provider,
        kind: notice.kind === 'refunded' ? 'refunded_elsewhere' : 'dispute',
        providerObjectId: notice.objectId,
        paymentId: payment?.id ?? null,
        amount: notice.amount,
        currency: notice.currency.toUpperCase(),
        detail: notice.detail ?? null,
        createdAt: now,
      })
      .onConflictDoNothing();
    return 'noted';
  });
}

/** Why a gateway's notify changed nothing before it reached an order (modules/payments). */
export type NotifyRefusal =
  | 'bad_signature'
  | 'foreign_merchant'
  | 'wrong_status'
  | 'malformed'
  | 'unknown_order'
  // A USDT gateway's: not the trade the order was opened with, or not the USDT amount it was shown.
  | 'other_trade'
  | 'wrong_usdt_amount';

/**
 * A gateway's notify that was refused (forged, another merchant's, not a payment, for no order of
 * ours) goes to the attention queue with what was wrong and what it said, once per distinct notify:
 * `fingerprint` names it (a hash of its fields), so a retried or repeated one is one item.
 */
export async function recordRefusedNotify(
  db: Database,
  notify: {
    provider: string;
    reason: NotifyRefusal;
    fingerprint: string;
    amount: number;
    currency: string;
    fields: Record<string, string>;
  },
  now: Date,
): Promise<void> {
  await db
    .insert(providerNotices)
    .values({
      provider: notify.provider,
      kind: 'notify_refused',
      providerObjectId: `${notify.reason}:${notify.fingerprint}`,
      amount: notify.amount,
      currency: notify.currency,
      detail: { reason: notify.reason, fields: notify.fields },
      createdAt: now,
    })
    .onConflictDoNothing();
}

/** The refusals that say someone other than the gateway is sending its notifies. */
const FORGED_REFUSALS: readonly NotifyRefusal[] = ['bad_signature', 'foreign_merchant'];

/**
 * Each gateway (by provider name) with notifies refused for a bad signature or another merchant
 * since `since`, and how many: the alerts job's "a gateway's notifies failing". Reads the queue's
 * refused notifies through their own partial index on the time.
 */
export async function forgedNotifiesSince(
  db: Database,
  since: Date,
): Promise<{ provider: string; refused: number }[]> {
  return db
    .select({ provider: providerNotices.provider, refused: sql<number>`count(*)::int` })
    .from(providerNotices)
    .where(
      and(
        eq(providerNotices.kind, 'notify_refused'),
        gt(providerNotices.createdAt, since),
        or(...FORGED_REFUSALS.map((reason) => like(providerNotices.providerObjectId, `${reason}:%`))),
      ),
    )
    .groupBy(providerNotices.provider);
}
