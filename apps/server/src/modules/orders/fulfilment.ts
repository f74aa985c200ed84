import type { Database } from '../../db/client.ts';
import type { OrderRow } from '../../db/schema/index.ts';
import { inOrderOwnerTransaction } from '../access/access.ts';
import { recordPaymentEvent } from '../payment-events/repository.ts';
import { type PaymentConfirmations, queuePaymentConfirmation } from './payment-confirmation.ts';
import { recordPayment } from './payments-repository.ts';
import { lockOrder, markOrderPaid } from './repository.ts';

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

/** What crediting a payment needs: the database, and the way its confirmation reaches the buyer. */
export interface FulfilDeps {
  db: Database;
  confirmations: PaymentConfirmations;
}

/**
 * - `credited`: the order is paid and the time is on the account;
 * - `duplicate`: this event or this payment was handled before; nothing changed;
 * - `amount_mismatch`, `already_paid`: recorded for the operator to refund or reconcile, no time given;
 * - `unknown_order`: no such order (recorded with the event, if any).
 */
export type FulfilOutcome = 'credited' | 'duplicate' | 'amount_mismatch' | 'already_paid' | 'unknown_order';

function judge(order: OrderRow, notice: PaymentNotice): 'credited' | 'amount_mismatch' | 'already_paid' {
  if (notice.amount !== order.amount || notice.currency.toUpperCase() !== order.currency)
    return 'amount_mismatch';
  if (order.status === 'paid') return 'already_paid';
  return 'credited';
}

/**
 * The one path by which an order becomes paid and money becomes time, for every provider. In one
 * transaction, holding the buyer's account first (found from the order in the statement that locks
 * it; access.ts gives the lock order), then the order:
 * the event and the payment id are recorded under unique keys (a repeated or concurrent delivery
 * stops there), the amount and currency are checked against the order, the order becomes paid (even
 * if it had expired or been cancelled: money taken is never lost), and the plan's time rules are
 * applied to the account with a ledger row, and the buyer's confirmation is queued.
 */
export async function fulfilPayment(
  deps: FulfilDeps,
  notice: PaymentNotice,
  now: Date,
): Promise<FulfilOutcome> {
  const { db, confirmations } = deps;
  const result = await inOrderOwnerTransaction<FulfilOutcome>(db, notice.orderId, now, async (account) => {
    const { tx } = account;
    if (notice.event && !(await recordPaymentEvent(tx, notice.provider, notice.event, notice.orderId, now))) {
      return 'duplicate';
    }
    const order = await lockOrder(tx, notice.orderId);
    if (!order) return 'unknown_order';
    const outcome = judge(order, notice);
    const recorded = await recordPayment(tx, {
      orderId: order.id,
      provider: notice.provider,
      providerPaymentId: notice.paymentId,
      amount: notice.amount,
      currency: notice.currency.toUpperCase(),
      outcome,
      createdAt: now,
    });
    if (!recorded) return 'duplicate';
    if (outcome !== 'credited') return outcome;
    await markOrderPaid(tx, order.id, now);
    const expireAt = await account.purchase(order);
    if (expireAt)
      await queuePaymentConfirmation(tx, confirmations, { user: account.user, order, expireAt }, now);
    return 'credited';
  });
  if (result === 'credited') confirmations.mailer.deliverSoon();
  if (result !== undefined) return result;
  // No such order: nothing was done.
  const fresh =
    !notice.event || (await recordPaymentEvent(db, notice.provider, notice.event, notice.orderId, now));
  return fresh ? 'unknown_order' : 'duplicate';
}
