import { and, eq, ne } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  type OrderRow,
  payments,
  type PaymentRow,
  providerNotices,
  type ProviderNoticeRow,
  refunds,
  type RefundRow,
} from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { inAccountTransaction, type LockedAccount } from '../access/access.ts';
import { recordAudit, type StaffActor } from '../audit/repository.ts';
import {
  type GatewayProviders,
  type PaymentProvider,
  providerOf,
  RefundRefused,
} from '../orders/provider.ts';
import { lockOrder, orderOwner } from '../orders/repository.ts';

export type TimeAction = 'take_back' | 'keep';

/** A refund asked for less than this long ago and not answered yet is in flight: a second click waits. */
const IN_FLIGHT_MS = 60_000;

async function lockPayment(tx: Database, id: string): Promise<PaymentRow | undefined> {
  const [row] = await tx.select().from(payments).where(eq(payments.id, id)).for('update');
  return row;
}

async function liveRefund(tx: Database, paymentId: string): Promise<RefundRow | undefined> {
  const [row] = await tx
    .select()
    .from(refunds)
    .where(and(eq(refunds.paymentId, paymentId), ne(refunds.status, 'failed')));
  return row;
}

/** The buyer of a payment's order: whose row every change here locks first (access.ts). */
async function buyerOf(db: Database, payment: { orderId: string }): Promise<string> {
  const owner = await orderOwner(db, payment.orderId);
  if (!owner) throw new AppError(404, 'not_found');
  return owner;
}

/** A payment's order and provider, as the calls here first need them. */
async function paymentOf(db: Database, paymentId: string): Promise<{ orderId: string; provider: string }> {
  const [payment] = await db
    .select({ orderId: payments.orderId, provider: payments.provider })
    .from(payments)
    .where(eq(payments.id, paymentId));
  if (!payment) throw new AppError(404, 'not_found');
  return payment;
}

async function paymentOwner(db: Database, paymentId: string): Promise<string> {
  return buyerOf(db, await paymentOf(db, paymentId));
}

/**
 * What the money given back does to the account: when the payment gave time (`credited`), the
 * order's days are taken back or kept, with a ledger row either way; a payment that gave no time
 * changes nothing. Marks the payment settled. Returns the seconds taken back.
 */
async function settleRefunded(
  account: LockedAccount,
  payment: PaymentRow,
  order: OrderRow,
  time: TimeAction,
): Promise<number | null> {
  let taken: number | null = null;
  if (payment.outcome === 'credited') {
    const before = account.entitlement.expireAt;
    const after = await account.refund(order, time === 'take_back');
    taken = Math.max(0, before - Math.floor((after?.getTime() ?? 0) / 1000));
  }
  await account.tx
    .update(payments)
    .set({ settledAt: account.now, settlement: 'refunded' })
    .where(eq(payments.id, payment.id));
  return taken;
}

/**
 * The refund row of a whole payment, with its audit row: `pending` before its provider is asked, or
 * `succeeded` when it was refunded outside (`secondsTaken` then says what it took back).
 */
async function writeRefund(
  tx: Database,
  actor: StaffActor,
  payment: PaymentRow,
  request: {
    status: 'pending' | 'succeeded';
    time: TimeAction;
    reason: string;
    now: Date;
    secondsTaken?: number | null;
  },
): Promise<RefundRow> {
  const outside = request.status === 'succeeded';
  const [refund] = await tx
    .insert(refunds)
    .values({
      paymentId: payment.id,
      provider: payment.provider,
      amount: payment.amount,
      currency: payment.currency,
      status: request.status,
      timeAction: request.time,
      secondsTaken: request.secondsTaken ?? null,
      reason: request.reason,
      staffId: actor.staffId,
      createdAt: request.now,
      updatedAt: request.now,
    })
    .returning();
  if (!refund) throw new Error('refund not written');
  await recordAudit(
    tx,
    actor,
    {
      action: outside ? 'payment.refund_outside' : 'payment.refund',
      targetType: 'payment',
      targetId: payment.id,
      before: { outcome: payment.outcome, refunded: false },
      after: {
        refund_id: refund.id,
        amount: refund.amount,
        currency: refund.currency,
        time: request.time,
        reason: request.reason,
        ...(outside ? { seconds_taken: refund.secondsTaken } : {}),
      },
    },
    request.now,
  );
  return refund;
}

/**
 * Gives a whole payment back through its provider (PRODUCT.md section 5), exactly once however
 * many times it is asked:
 *
 * 1. In the buyer's transaction, the refund is written `pending` with its audit row (the account's
 *    lock and the unique live-refund index make concurrent clicks write one row). A second click
 *    while the first is being answered gets that refund back, and asks nothing.
 * 2. The provider is asked with the refund's id as the idempotency key: asking again after a lost
 *    answer (the row keeps the error) gets the same refund, never a second one.
 * 3. In the buyer's transaction again, the answer is written, and the order's time taken back or
 *    kept, with a ledger row; the payment is settled.
 *
 * The provider's no (RefundRefused) marks the refund failed (a new one may be asked for); a
 * provider that cannot be reached leaves it pending with the error, for a retry.
 */
export async function refundPayment(
  deps: { db: Database; provider: PaymentProvider; gateways?: GatewayProviders },
  actor: StaffActor,
  request: { paymentId: string; time: TimeAction; reason: string; now: Date },
): Promise<RefundRow> {
  const { db } = deps;
  const found = await paymentOf(db, request.paymentId);
  const owner = await buyerOf(db, found);
  // The site's provider, or the payment gateway that took the payment (asked before the buyer's
  // transaction: a gateway is read from the store).
  // Epay and USDT have no refund call: theirs are refunded outside and recorded (recordRefundOutside).
  const provider = await providerOf(deps, found);
  const refundCall = provider?.refund?.bind(provider);
  if (!refundCall) throw new AppError(409, 'refund_unavailable');
  const started = await inAccountTransaction(db, owner, request.now, async ({ tx }) => {
    const payment = await lockPayment(tx, request.paymentId);
    if (!payment) throw new AppError(404, 'not_found');
    const existing = await liveRefund(tx, payment.id);
    if (existing?.status === 'succeeded') throw new AppError(409, 'already_refunded');
    if (existing) {
      const inFlight = !existing.error && request.now.getTime() - existing.updatedAt.getTime() < IN_FLIGHT_MS;
      return { payment, refund: existing, ask: !inFlight };
    }
    if (payment.settledAt) throw new AppError(409, 'already_resolved');
    const refund = await writeRefund(tx, actor, payment, { ...request, status: 'pending' });
    return { payment, refund, ask: true };
  });
  if (!started.ask) return started.refund;

  const { payment, refund } = started;
  let answer;
  try {
    answer = await refundCall(payment, refund.id);
  } catch (error) {
    const refused = error instanceof RefundRefused;
    const message = error instanceof Error ? error.message : String(error);
    await db
      .update(refunds)
      .set({ status: refused ? 'failed' : 'pending', error: message, updatedAt: new Date() })
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, 'pending')));
    throw refused ? new AppError(409, 'refund_refused') : new AppError(500, 'payment_unavailable');
  }

  return inAccountTransaction(db, owner, new Date(), async (account) => {
    const [current] = await account.tx.select().from(refunds).where(eq(refunds.id, refund.id)).for('update');
    // Another try finished it first (a retry, or the provider's webhook): nothing more to do.
    if (!current || current.status === 'succeeded' || current.providerRefundId) return current ?? refund;
    const order = await lockOrder(account.tx, payment.orderId);
    if (!order) throw new Error(`payment ${payment.id} has no order`);
    const taken = await settleRefunded(account, payment, order, current.timeAction as TimeAction);
    const [written] = await account.tx
      .update(refunds)
      .set({
        providerRefundId: answer.id,
        status: answer.status,
        error: null,
        secondsTaken: taken,
        updatedAt: account.now,
      })
      .where(eq(refunds.id, refund.id))
      .returning();
    return written ?? current;
  });
}

/**
 * A payment whose provider has no refund call here (a payment gateway: Epay, USDT), refunded by the
 * operator outside (at the aggregator, by a transfer back): recorded as a succeeded refund without a
 * provider id, and the order's time taken back or kept with a ledger row, in the buyer's transaction,
 * once. A payment of a provider with a refund call (the site's own, Alipay) is refunded through it
 * instead.
 */
export async function recordRefundOutside(
  deps: { db: Database; provider: PaymentProvider; gateways?: GatewayProviders },
  actor: StaffActor,
  request: { paymentId: string; time: TimeAction; reason: string; now: Date },
): Promise<RefundRow> {
  const found = await paymentOf(deps.db, request.paymentId);
  const owner = await buyerOf(deps.db, found);
  if ((await providerOf(deps, found))?.refund) throw new AppError(409, 'refund_through_provider');
  return inAccountTransaction(deps.db, owner, request.now, async (account) => {
    const payment = await lockPayment(account.tx, request.paymentId);
    if (!payment) throw new AppError(404, 'not_found');
    const existing = await liveRefund(account.tx, payment.id);
    if (existing?.status === 'succeeded') throw new AppError(409, 'already_refunded');
    if (existing || payment.settledAt) throw new AppError(409, 'already_resolved');
    const order = await lockOrder(account.tx, payment.orderId);
    if (!order) throw new Error(`payment ${payment.id} has no order`);
    const secondsTaken = await settleRefunded(account, payment, order, request.time);
    return writeRefund(account.tx, actor, payment, { ...request, status: 'succeeded', secondsTaken });
  });
}

/**
 * A payment dealt with by hand: one that gave no time (refunded elsewhere, or credited by staff), or
 * one whose refund the provider refused (refunded in its dashboard already).
 */
export async function settlePayment(
  db: Database,
  actor: StaffActor,
  request: { paymentId: string; reason: string; now: Date },
): Promise<PaymentRow> {
  const owner = await paymentOwner(db, request.paymentId);
  return inAccountTransaction(db, owner, request.now, async ({ tx }) => {
    const payment = await lockPayment(tx, request.paymentId);
    if (!payment) throw new AppError(404, 'not_found');
    if (payment.settledAt) throw new AppError(409, 'already_resolved');
    // A payment that gave time is settled by a refund, unless its provider refused one (refunded there).
    const [refused] = await tx
      .select({ id: refunds.id })
      .from(refunds)
      .where(and(eq(refunds.paymentId, payment.id), eq(refunds.status, 'failed')));
    if (payment.outcome === 'credited' && !refused) throw new AppError(409, 'already_resolved');
    const [settled] = await tx
      .update(payments)
      .set({ settledAt: request.now, settlement: 'reconciled' })
      .where(eq(payments.id, payment.id))
      .returning();
    await recordAudit(
      tx,
      actor,
      {
        action: 'payment.settle',
        targetType: 'payment',
        targetId: payment.id,
        before: { settled: false },
        after: { settled: true, settlement: 'reconciled', reason: request.reason },
      },
      request.now,
    );
    return settled ?? payment;
  });
}

/**
 * Closes a provider's notice with a note. Money refunded in the provider's dashboard is settled
 * here: the order's time taken back or kept, with a ledger row, as a refund from the back office.
 */
export async function resolveNotice(
  db: Database,
  actor: StaffActor,
  request: { id: string; reason: string; time?: TimeAction; now: Date },
): Promise<ProviderNoticeRow> {
  const [notice] = await db.select().from(providerNotices).where(eq(providerNotices.id, request.id));
  if (!notice) throw new AppError(404, 'not_found');
  const close = async (tx: Database, account: LockedAccount | null) => {
    const [locked] = await tx
      .select()
      .from(providerNotices)
      .where(eq(providerNotices.id, request.id))
      .for('update');
    if (!locked || locked.resolvedAt) throw new AppError(409, 'already_resolved');
    let taken: number | null = null;
    if (account && locked.kind === 'refunded_elsewhere' && locked.paymentId) {
      const payment = await lockPayment(tx, locked.paymentId);
      const order = payment && (await lockOrder(tx, payment.orderId));
      if (payment && order && !payment.settledAt) {
        taken = await settleRefunded(account, payment, order, request.time ?? 'keep');
      }
    }
    const [resolved] = await tx
      .update(providerNotices)
      .set({ resolvedAt: request.now, resolvedBy: actor.staffId, resolution: request.reason })
      .where(eq(providerNotices.id, locked.id))
      .returning();
    await recordAudit(
      tx,
      actor,
      {
        action: 'notice.resolve',
        targetType: 'provider_notice',
        targetId: locked.id,
        before: { resolved: false, kind: locked.kind },
        after: { resolved: true, reason: request.reason, time: request.time ?? null, seconds_taken: taken },
      },
      request.now,
    );
    return resolved ?? locked;
  };
  if (!notice.paymentId) return db.transaction((tx) => close(tx, null));
  const owner = await paymentOwner(db, notice.paymentId);
  return inAccountTransaction(db, owner, request.now, (account) => close(account.tx, account));
}
