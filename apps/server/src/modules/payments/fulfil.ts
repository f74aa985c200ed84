import { eq } from 'drizzle-orm';
import { toUnixSeconds } from '@skyway/shared/dates';
import { applyPurchase } from '@skyway/shared/plans';
import { SUBSCRIBE_TYPES } from '@skyway/shared/user';
import type { Database } from '../../db/client.ts';
import { orders, type OrderRow, paymentEvents, payments } from '../../db/schema/index.ts';
import { entitlementOf, lockUser, writeEntitlement } from '../ledger/expiry.ts';

/** A provider's word that money was taken for an order. */
export interface PaymentNotice {
  provider: string;
  orderId: string;
  /** The provider's transaction id: one credit per id, ever. */
  paymentId: string;
  /** Minor units (fen) and ISO currency, as the provider reports them. */
  amount: number;
  currency: string;
  /** The notification that carried it, when it came as one (a Stripe event). */
  event?: { id: string; type: string };
}

/**
 * - `credited`: the order is paid and the time is on the account;
 * - `duplicate`: this event or this payment was handled before; nothing changed;
 * - `amount_mismatch`, `already_paid`: recorded for the operator to refund or reconcile, no time given;
 * - `unknown_order`: no such order (recorded with the event, if any).
 */
export type FulfilOutcome = 'credited' | 'duplicate' | 'amount_mismatch' | 'already_paid' | 'unknown_order';

/** Records a notification once; false when it was recorded before. */
export async function recordPaymentEvent(
  db: Database,
  provider: string,
  event: { id: string; type: string },
  orderId: string | null,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .insert(paymentEvents)
    .values({ provider, eventId: event.id, type: event.type, orderId, receivedAt: now })
    .onConflictDoNothing()
    .returning({ eventId: paymentEvents.eventId });
  return rows.length === 1;
}

async function lockOrder(db: Database, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId)).for('update');
  return row;
}

function judge(order: OrderRow, notice: PaymentNotice): 'credited' | 'amount_mismatch' | 'already_paid' {
  if (notice.amount !== order.amount || notice.currency.toUpperCase() !== order.currency)
    return 'amount_mismatch';
  if (order.status === 'paid') return 'already_paid';
  return 'credited';
}

/**
 * The one path by which money becomes time, for every provider. In one transaction: the event and
 * the payment id are recorded under unique keys (a repeated or concurrent delivery stops there), the
 * amount and currency are checked against the order, the order becomes paid (even if it had expired
 * or been cancelled: money taken is never lost), and the plan's time rules are applied to the account
 * with a ledger row. Locks the user before the order, like order creation, so the two never deadlock.
 */
export async function fulfilPayment(db: Database, notice: PaymentNotice, now: Date): Promise<FulfilOutcome> {
  const [owner] = await db
    .select({ userId: orders.userId })
    .from(orders)
    .where(eq(orders.id, notice.orderId));
  return db.transaction(async (tx) => {
    if (notice.event && !(await recordPaymentEvent(tx, notice.provider, notice.event, notice.orderId, now))) {
      return 'duplicate';
    }
    if (!owner) return 'unknown_order';
    const user = await lockUser(tx, owner.userId);
    const order = await lockOrder(tx, notice.orderId);
    if (!order) return 'unknown_order';
    const outcome = judge(order, notice);
    const recorded = await tx
      .insert(payments)
      .values({
        orderId: order.id,
        provider: notice.provider,
        providerPaymentId: notice.paymentId,
        amount: notice.amount,
        currency: notice.currency.toUpperCase(),
        outcome,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: payments.id });
    if (recorded.length === 0) return 'duplicate';
    if (outcome !== 'credited') return outcome;

    await tx.update(orders).set({ status: 'paid', paidAt: now }).where(eq(orders.id, order.id));
    const { after } = applyPurchase(
      entitlementOf(user, now),
      { days: order.days, connections: order.connections },
      toUnixSeconds(now),
    );
    await writeEntitlement(tx, user, {
      reason: 'purchase',
      ref: order.id,
      after,
      now,
      // An app-store subscriber stays one: the store keeps renewing, and card time follows its period.
      subscribeType: user.subscribeType === SUBSCRIBE_TYPES.appStore ? undefined : SUBSCRIBE_TYPES.card,
    });
    return 'credited';
  });
}
